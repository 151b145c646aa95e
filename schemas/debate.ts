import { z } from 'zod';
import { configObject, SafeId, Usage } from './common.js';

export const DEBATE_TRANSCRIPT_VERSION = 1;

/** `qualify`: the agent accepts the claim's conclusion but disputes a part of it (a figure, a premise, its scope). */
export const Stance = z.enum(['rebut', 'qualify', 'support', 'concede', 'extend']);
export type Stance = z.infer<typeof Stance>;

const DebateAgentObject = configObject({
  /** Stable id used in step keys and the graph; defaults to `agent-<n>`. */
  id: SafeId.optional(),
  /** Backend spec, e.g. `openai:gpt-4.1` or `openai-compatible:<url>#<model>`. */
  model: z.string().min(1),
  role: z.string().min(1).optional(),
  persona: z.string().min(1).optional(),
});

/** An agent: `{ model, role?, persona?, id? }`, or its model spec alone (`openai:gpt-4.1`), as a sweep's `agents: [[spec, spec]]` writes it. */
export const DebateAgentSpec = z.union([z.string().min(1).transform((model) => ({ model })).pipe(DebateAgentObject), DebateAgentObject]);
export type DebateAgentSpec = z.infer<typeof DebateAgentSpec>;

export const CritConfig = configObject({
  judge: z.string().min(1),
  /** `gamma`: Chang 2023 reasons x credibility; `pillars`: the four-pillar rho; `both`. */
  variant: z.enum(['gamma', 'pillars', 'both']).default('both'),
});

export const RcaConfig = configObject({ judge: z.string().min(1) });

export const PidConfig = configObject({
  rhoStar: z.number().min(0).max(1).default(0.8),
  gammaBeta: z.number().gt(0).max(1).default(0.9),
  mu: z.number().min(0).default(1),
  kp: z.number().default(0.15),
  ki: z.number().default(0.01),
  kd: z.number().default(0.03),
  deltaJs: z.number().min(0).default(0.05),
  deltaBeta: z.number().min(0).max(1).default(0.1),
  beta0: z.number().min(0).max(1).default(0.5),
  /** `raudit`: the origin's quadrant-routed update (cs372research eval/PID/controller.py); `parley-v1`: parley's first reading. */
  variant: z.enum(['raudit', 'parley-v1']).default('raudit'),
});
export type PidConfig = z.infer<typeof PidConfig>;

export const RoleVisibility = z.enum(['all', 'judges', 'none']);
export type RoleVisibility = z.infer<typeof RoleVisibility>;

export const DebateConfig = configObject({
  question: z.string().min(1),
  agents: z.array(DebateAgentSpec).min(2),
  rounds: z.number().int().min(1).default(3),
  /** Answer options; when given, answers and distributions are mapped onto them. */
  options: z.array(z.string().min(1)).min(2).optional(),
  /**
   * `option`: each agent answers with one option (its `distribution`, if any, only feeds JS).
   * `distribution`: each agent answers with an allocation over the options, and agreement, entropy,
   * unanimity, majority and conformity are computed on the distributions (README, debate measures).
   */
  answerKind: z.enum(['option', 'distribution']).default('option'),
  /** Used only by the measures (never shown to agents or judges). */
  groundTruth: z.string().min(1).optional(),
  anonymise: z.boolean().default(true),
  /**
   * Who sees the roles and personas the agents were given: `all` (the other agents and the judges),
   * `judges` (CRIT and RCA only), `none` (each agent sees only its own). README, debate measures.
   */
  roleVisibility: RoleVisibility.default('all'),
  stop: configObject({
    onConvergence: z.boolean().default(true),
    /** Stop when the generalized JS divergence falls under this (bits). */
    epsilon: z.number().min(0).default(0.01),
    onUnanimity: z.boolean().default(true),
    /** Convergence is not checked before this many rounds. */
    minRounds: z.number().int().min(1).default(2),
    /** Safety bound (T_max): no debate runs more rounds than this. */
    maxRounds: z.number().int().min(1).default(20),
    maxTotalTokens: z.number().int().positive().optional(),
  }).prefault({}),
  crit: CritConfig.optional(),
  rca: RcaConfig.optional(),
  pid: PidConfig.optional(),
  concurrencyPerBackend: z.number().int().min(1).default(8),
  temperature: z.number().min(0).max(2).optional(),
  timeoutMs: z.number().int().positive().default(300_000),
  deltaS: z.number().min(0).default(0.05),
}).superRefine((config, ctx) => {
  if (config.pid && !config.crit) {
    ctx.addIssue({ code: 'custom', path: ['pid'], message: 'the PID controller needs CRIT scores (rho): set crit as well' });
  }
  const ids = config.agents.map((agent, index) => agent.id ?? `agent-${index + 1}`);
  if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', path: ['agents'], message: 'agent ids must be unique' });
});
export type DebateConfig = z.infer<typeof DebateConfig>;
export type DebateConfigInput = z.input<typeof DebateConfig>;

/** A reference names the agent and the specific claim it engages (seed 002, section 3). */
export const DebaterReference = z.object({
  agent: z.string().min(1),
  claim: z.string().min(1),
  stance: Stance,
  note: z.string().optional(),
});

/** What a debater must answer with (one JSON object); protocols/debate/reply-schema.ts narrows it to the options. */
export const DebaterReply = z.object({
  answer: z.string().min(1),
  /** Weights are checked after parsing (checkWeights): a negative or all-zero one makes the turn invalid, naming agent and round. */
  distribution: z.record(z.string(), z.number()).optional(),
  confidence: z.number().min(0).max(1).optional(),
  claims: z.array(z.object({ id: z.string().min(1), text: z.string().min(1) })).default([]),
  references: z.array(DebaterReference).default([]),
  evidence: z.array(z.string().min(1)).default([]),
  reasoning: z.string().optional(),
});
export type DebaterReply = z.infer<typeof DebaterReply>;

/** The reply of a debate whose answers are distributions: the allocation is required, `answer` is its top holding. */
export const DistributionDebaterReply = DebaterReply.extend({
  answer: z.string().min(1).optional(),
  distribution: z.record(z.string(), z.number()),
});
export type DistributionDebaterReply = z.infer<typeof DistributionDebaterReply>;

/** A reference resolved to agent ids and a canonical claim id. */
export const ResolvedReference = z.object({
  targetAgent: z.string(),
  targetClaim: z.string().optional(),
  stance: Stance,
  note: z.string().optional(),
  /** The reference as the model wrote it, kept when it could not be resolved. */
  raw: z.object({ agent: z.string(), claim: z.string().optional() }),
  /** The target agent is known (the agent-to-agent edge counts); a claim may still be unresolved. */
  resolved: z.boolean(),
  /** The claim id as written when it matched no known claim of `targetAgent`. */
  unresolvedClaim: z.string().optional(),
});
export type ResolvedReference = z.infer<typeof ResolvedReference>;

export const TurnRecord = z.object({
  answer: z.string(),
  distribution: z.record(z.string(), z.number()),
  confidence: z.number().optional(),
  claims: z.array(z.object({ id: z.string(), localId: z.string(), text: z.string() })),
  references: z.array(ResolvedReference),
  evidence: z.array(z.string()),
  reasoning: z.string().optional(),
});
export type TurnRecord = z.infer<typeof TurnRecord>;

export const DebateTurn = z.object({
  agentId: z.string(),
  label: z.string(),
  step: z.string(),
  status: z.enum(['ok', 'format-failure', 'call-failure']),
  record: TurnRecord.optional(),
  raw: z.string().optional(),
  error: z.string().optional(),
  usage: Usage.optional(),
  latencyMs: z.number().optional(),
  replayed: z.boolean().default(false),
});
export type DebateTurn = z.infer<typeof DebateTurn>;

export const CritAgentScore = z.object({
  agentId: z.string(),
  gamma: z.number().optional(),
  pillars: z
    .object({ logicalValidity: z.number(), evidentialSupport: z.number(), alternativeConsideration: z.number(), causalAlignment: z.number() })
    .optional(),
  rho: z.number().optional(),
  flags: z.array(z.string()).default([]),
});
export type CritAgentScore = z.infer<typeof CritAgentScore>;

export const RcaVerdict = z.object({
  agentId: z.string(),
  verdict: z.enum(['CONSISTENT', 'INCONSISTENT_SYCOPHANTIC', 'INCONSISTENT_STUBBORN', 'INCONSISTENT_OTHER']),
  explanation: z.string(),
  confidence: z.number().min(0).max(1),
});
export type RcaVerdict = z.infer<typeof RcaVerdict>;

export const PidStep = z.object({
  beta: z.number(),
  error: z.number(),
  integral: z.number(),
  derivative: z.number(),
  control: z.number(),
  betaPid: z.number(),
  quadrant: z.enum(['STUCK', 'CHAOTIC', 'CONVERGED', 'HEALTHY']),
  nextBeta: z.number(),
  nextTone: z.enum(['adversarial', 'balanced', 'collaborative']),
});
export type PidStep = z.infer<typeof PidStep>;

export const DebateRound = z.object({
  round: z.number().int().min(1),
  /** Speaking order of this round's transcript (agent ids), rotated by one each round. */
  order: z.array(z.string()),
  tone: z.enum(['adversarial', 'balanced', 'collaborative']).optional(),
  beta: z.number().optional(),
  turns: z.array(DebateTurn),
  crit: z.object({ status: z.enum(['ok', 'failure']), scores: z.array(CritAgentScore), rhoBar: z.number().optional(), error: z.string().optional() }).optional(),
  rca: z.object({ status: z.enum(['ok', 'failure']), verdicts: z.array(RcaVerdict), error: z.string().optional() }).optional(),
  pid: PidStep.optional(),
});
export type DebateRound = z.infer<typeof DebateRound>;

export const DebateTranscript = z.object({
  kind: z.literal('parley.debate'),
  version: z.literal(DEBATE_TRANSCRIPT_VERSION),
  runId: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  question: z.string(),
  options: z.array(z.string()).optional(),
  groundTruth: z.string().optional(),
  anonymise: z.boolean(),
  /** Absent in transcripts from before it existed: their agents' roles reached only the agent itself (`none`). */
  roleVisibility: RoleVisibility.optional(),
  agents: z.array(z.object({ id: z.string(), label: z.string(), model: z.string(), role: z.string().optional(), persona: z.string().optional() })),
  config: z.record(z.string(), z.unknown()),
  rounds: z.array(DebateRound),
  stop: z.object({
    reason: z.enum(['fixed-rounds', 'converged-js', 'unanimity', 'safety-rounds', 'safety-tokens', 'no-valid-replies', 'canceled']),
    roundsRun: z.number().int().min(0),
  }),
  usage: Usage,
});
export type DebateTranscript = z.infer<typeof DebateTranscript>;
