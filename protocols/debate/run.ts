import { getMaxListeners, setMaxListeners } from 'node:events';
import pLimit, { type LimitFunction } from 'p-limit';
import { addUsage, parseConfig, zeroUsage, type Usage } from '../../schemas/common.js';
import {
  DEBATE_TRANSCRIPT_VERSION,
  DebateConfig,
  type DebateConfigInput,
  type DebateRound,
  type DebateTranscript,
  type DebateTurn,
} from '../../schemas/debate.js';
import type { ConversationTurn, SendOptions } from '../../wrapper/backend.js';
import type { RunContext } from '../run-protocol.js';
import { endpointOf, resolveAgents, speakingOrder, type DebateAgent } from './agents.js';
import { CritReply, RcaReply, critPrompt, critScores, rcaPrompt, rcaVerdicts, type JudgeView } from './judges.js';
import { readTurn, type AnswerKind, type KnownClaim, type ParsedReply } from './parse-turn.js';
import { debaterReplySchema } from './reply-schema.js';
import { pidStabilityCheck, pidStep, toneFor, type PidState, type Tone } from './pid.js';
import { roundPrompt, systemPrompt } from './prompts.js';
import { recordedCall, replayableCalls, type CallOutcome } from '../recorded-call.js';
import { measureRounds } from './round-measures.js';
import { withCheckedModelSpecs } from '../model-specs.js';
import { UserFacingError } from '../../schemas/user-facing-error.js';

export interface DebateRunHooks {
  /** Called after every completed round with the transcript so far (e.g. to save it). */
  onRound?(transcript: DebateTranscript): Promise<void> | void;
}

/** Every model spec a debate config names, with its path: agents and judges. */
export function debateModelSpecs(config: DebateConfig): { path: (string | number)[]; spec: string }[] {
  return [
    ...config.agents.map((agent, index) => ({ path: ['agents', index, 'model'], spec: agent.model })),
    ...(config.crit ? [{ path: ['crit', 'judge'], spec: config.crit.judge }] : []),
    ...(config.rca ? [{ path: ['rca', 'judge'], spec: config.rca.judge }] : []),
  ];
}

/** The config schema with each model spec checked: a spec no backend takes is a config error. */
export const CHECKED_DEBATE_CONFIG = withCheckedModelSpecs(DebateConfig, debateModelSpecs);

/**
 * Parses the config and refuses an unstable PID configuration before any model is called. `where`
 * names where a top-level key's value came from (the --config file), for the error.
 */
export function parseDebateConfig(input: DebateConfigInput | DebateConfig, where?: (topKey: string | undefined) => string | undefined): DebateConfig {
  const config = parseConfig(CHECKED_DEBATE_CONFIG, input, 'debate config', where);
  if (config.pid) {
    const check = pidStabilityCheck(config.pid, config.stop.maxRounds);
    if (!check.stable) {
      throw new Error(
        `PID gains fail the stability precheck: e_max*(Kp + T_max*Ki + 2*Kd) = ${check.lhs.toFixed(3)} must be below 1/gamma_beta = ${check.rhs.toFixed(3)}; lower the gains or stop.maxRounds`,
      );
    }
  }
  return config;
}

export async function runDebate(input: DebateConfigInput | DebateConfig, ctx: RunContext, hooks: DebateRunHooks = {}): Promise<DebateTranscript> {
  const config = parseDebateConfig(input);
  const agents = resolveAgents(config);
  const roundsPlanned = Math.min(config.rounds, config.stop.maxRounds);
  // Every concurrent call listens for cancellation on the one run signal.
  setMaxListeners(Math.max(getMaxListeners(ctx.signal), agents.length * 2 + 10), ctx.signal);
  const replay = replayableCalls(await ctx.audit.readAll());
  const limits = new Map<string, LimitFunction>();
  const limitFor = (spec: string): LimitFunction => {
    const key = endpointOf(spec);
    const existing = limits.get(key);
    if (existing) return existing;
    const created = pLimit(config.concurrencyPerBackend);
    limits.set(key, created);
    return created;
  };
  const view: JudgeView = { question: config.question, ...(config.options && { options: config.options }), answerKind: config.answerKind, agents, roleVisibility: config.roleVisibility };
  const promptCtx = { ...view, rounds: roundsPlanned };
  const replySchema = debaterReplySchema(config.answerKind, config.options);
  const systems = new Map(agents.map((agent) => [agent.id, systemPrompt(agent, promptCtx)]));
  const histories = new Map<string, ConversationTurn[]>(agents.map((agent) => [agent.id, []]));
  const sendOptions: SendOptions = { timeoutMs: config.timeoutMs, ...(config.temperature !== undefined && { temperature: config.temperature }) };
  const transcript: DebateTranscript = {
    kind: 'parley.debate',
    version: DEBATE_TRANSCRIPT_VERSION,
    runId: ctx.runId,
    startedAt: ctx.now().toISOString(),
    question: config.question,
    ...(config.options && { options: config.options }),
    ...(config.groundTruth && { groundTruth: config.groundTruth }),
    anonymise: config.anonymise,
    roleVisibility: config.roleVisibility,
    agents: agents.map(({ id, label, model, role, persona }) => ({ id, label, model, ...(role && { role }), ...(persona && { persona }) })),
    config: config as unknown as Record<string, unknown>,
    rounds: [],
    stop: { reason: 'fixed-rounds', roundsRun: 0 },
    usage: zeroUsage(),
  };
  await ctx.audit.append({ type: 'debate.start', runId: ctx.runId, config, agents: transcript.agents });
  const knownClaims: KnownClaim[] = [];
  let pidState: PidState | undefined = config.pid ? { beta: config.pid.beta0, integral: 0 } : undefined;
  let tone: Tone | undefined = pidState ? toneFor(pidState.beta) : undefined;
  const totalCalls = roundsPlanned * agents.length;
  let callsDone = 0;
  const spend = (usage: Usage) => (transcript.usage = addUsage(transcript.usage, usage));

  const sessions = new Map<string, string>();
  for (let round = 1; round <= roundsPlanned; round += 1) {
    if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('debate canceled');
    const order = speakingOrder(agents.map((agent) => agent.id), round);
    const previous = transcript.rounds.at(-1);
    const callAgent = async (agent: DebateAgent): Promise<DebateTurn> => {
      const prompt = roundPrompt({ round, rounds: roundsPlanned, self: agent, agents, ...(previous && { previous }), ...(tone && { tone }) });
      const history = histories.get(agent.id)!;
      const step = `r${round}/agent-${agent.number}`;
      const outcome = await limitFor(agent.model)(() =>
        recordedCall({
          step,
          audit: ctx.audit,
          replay,
          backend: ctx.backendFor(agent.model),
          // Session backends (codex, claude) resume their thread; stateless APIs replay the history.
          conversation: { system: systems.get(agent.id)!, history: [...history], ...(sessions.has(agent.id) && { sessionId: sessions.get(agent.id) }) },
          prompt,
          schema: replySchema,
          schemaName: 'debate_turn',
          options: sendOptions,
          signal: ctx.signal,
        }),
      );
      if ('sessionId' in outcome && outcome.sessionId) sessions.set(agent.id, outcome.sessionId);
      // Append-only history: the next request repeats this one byte for byte before adding to it.
      history.push({ role: 'user', content: prompt }, { role: 'assistant', content: outcome.status === 'call-failure' ? '(no response)' : outcome.raw });
      callsDone += 1;
      ctx.progress({ done: callsDone, total: totalCalls, message: `round ${round}/${roundsPlanned}: ${agent.label} ${outcome.status}` });
      return toTurn(outcome, agent, step, round, knownClaims, agents, config.options, config.answerKind);
    };
    const turns = await Promise.all(agents.map(callAgent));
    for (const turn of turns) spend(turn.usage ?? zeroUsage());
    const current: DebateRound = {
      round,
      order,
      ...(tone && { tone }),
      ...(pidState && { beta: pidState.beta }),
      turns: order.map((agentId) => turns.find((turn) => turn.agentId === agentId)!),
    };
    for (const turn of current.turns) {
      for (const claim of turn.record?.claims ?? []) knownClaims.push({ id: claim.id, agentId: turn.agentId, localId: claim.localId, round });
    }
    if (config.crit) await runCrit(config.crit, view, ctx, replay, current, previous, spend, sendOptions);
    if (config.rca && previous) await runRca(config.rca, view, ctx, replay, previous, current, spend, sendOptions);
    transcript.rounds.push(current);
    const measures = measureRounds(transcript.rounds, agents.length, config.deltaS, config.answerKind).at(-1)!;
    // Without a rho_bar (the CRIT call failed) the controller holds beta rather than guess.
    if (config.pid && pidState && current.crit?.rhoBar !== undefined) {
      const step = pidStep(pidState, { rhoBar: current.crit.rhoBar, sycophancy: measures.sycophancy ?? 0, js: measures.js }, config.pid);
      current.pid = { beta: pidState.beta, ...step };
      pidState = { beta: step.nextBeta, integral: step.integral, previousError: step.error };
      tone = step.nextTone;
    }
    transcript.stop = { reason: 'fixed-rounds', roundsRun: round };
    await ctx.audit.append({ type: 'debate.round', round: current });
    const stop = stopReason(config, round, roundsPlanned, measures, transcript.usage);
    if (stop) transcript.stop = { reason: stop, roundsRun: round };
    await hooks.onRound?.(transcript);
    if (stop) break;
  }
  transcript.finishedAt = ctx.now().toISOString();
  await ctx.audit.append({ type: 'debate.end', stop: transcript.stop, usage: transcript.usage });
  assertSomeValidReply(transcript);
  return transcript;
}

/** A debate in which no debater ever gave a valid reply measured nothing: it failed, whatever stopped it. */
function assertSomeValidReply(transcript: DebateTranscript): void {
  const turns = transcript.rounds.flatMap((round) => round.turns);
  if (turns.length === 0 || turns.some((turn) => turn.status === 'ok')) return;
  const failed = turns.filter((turn) => turn.status === 'call-failure').length;
  const first = turns.find((turn) => turn.error)?.error;
  throw new UserFacingError(
    `no debater gave a valid reply (${failed} failed calls, ${turns.length - failed} unreadable replies)${first ? `; first error: ${first}` : ''}. Fix the cause and start the run again to resume it`,
    { code: 'debate-failed' },
  );
}

function stopReason(
  config: DebateConfig,
  round: number,
  roundsPlanned: number,
  measures: ReturnType<typeof measureRounds>[number],
  usage: Usage,
): DebateTranscript['stop']['reason'] | undefined {
  if (measures.validAgents === 0) return 'no-valid-replies';
  if (round >= config.stop.minRounds && measures.validAgents >= 2) {
    if (config.stop.onUnanimity && measures.unanimity) return 'unanimity';
    if (config.stop.onConvergence && measures.js < config.stop.epsilon) return 'converged-js';
  }
  if (config.stop.maxTotalTokens !== undefined && usage.inputTokens + usage.outputTokens >= config.stop.maxTotalTokens) return 'safety-tokens';
  if (round === roundsPlanned) return roundsPlanned < config.rounds ? 'safety-rounds' : 'fixed-rounds';
  return undefined;
}

function toTurn(
  outcome: CallOutcome<ParsedReply>,
  agent: DebateAgent,
  step: string,
  round: number,
  knownClaims: KnownClaim[],
  agents: DebateAgent[],
  options: string[] | undefined,
  answerKind: AnswerKind,
): DebateTurn {
  const common = { agentId: agent.id, label: agent.label, step, usage: outcome.usage, latencyMs: outcome.latencyMs, replayed: outcome.replayed };
  if (outcome.status === 'call-failure') return { ...common, status: 'call-failure', error: outcome.error };
  if (outcome.status === 'format-failure') return { ...common, status: 'format-failure', raw: outcome.raw, error: outcome.error };
  const read = readTurn(outcome.value, { round, agent, agents, knownClaims, ...(options && { options }) }, answerKind);
  // Well-formed JSON whose weights break the rule (negative, all zero, missing) is as unusable as bad JSON.
  if ('refusal' in read) return { ...common, status: 'format-failure', raw: outcome.raw, error: read.refusal };
  return { ...common, status: 'ok', raw: outcome.raw, record: read.record };
}

type Spend = (usage: Usage) => void;
type Replay = ReturnType<typeof replayableCalls>;

async function runCrit(
  crit: NonNullable<DebateConfig['crit']>,
  view: JudgeView,
  ctx: RunContext,
  replay: Replay,
  round: DebateRound,
  previous: DebateRound | undefined,
  spend: Spend,
  options: SendOptions,
) {
  const outcome = await recordedCall({
    step: `r${round.round}/crit`,
    audit: ctx.audit,
    replay,
    backend: ctx.backendFor(crit.judge),
    conversation: { history: [] },
    prompt: critPrompt(view, round, previous, crit.variant),
    schema: CritReply,
    schemaName: 'crit_scores',
    options,
    signal: ctx.signal,
  });
  spend(outcome.usage);
  round.crit = outcome.status === 'ok' ? { status: 'ok', ...critScores(outcome.value, view.agents, round) } : { status: 'failure', scores: [], error: outcome.error };
}

async function runRca(
  rca: NonNullable<DebateConfig['rca']>,
  view: JudgeView,
  ctx: RunContext,
  replay: Replay,
  previous: DebateRound,
  round: DebateRound,
  spend: Spend,
  options: SendOptions,
) {
  const outcome = await recordedCall({
    step: `r${round.round}/rca`,
    audit: ctx.audit,
    replay,
    backend: ctx.backendFor(rca.judge),
    conversation: { history: [] },
    prompt: rcaPrompt(view, previous, round),
    schema: RcaReply,
    schemaName: 'rca_verdicts',
    options,
    signal: ctx.signal,
  });
  spend(outcome.usage);
  round.rca = outcome.status === 'ok' ? { status: 'ok', verdicts: rcaVerdicts(outcome.value, view.agents) } : { status: 'failure', verdicts: [], error: outcome.error };
}
