import type { DebaterReply, ResolvedReference, TurnRecord } from '../../schemas/debate.js';
import type { DebateAgent } from './agents.js';
import { claimIdOf } from './agents.js';
import { UserFacingError } from '../../schemas/user-facing-error.js';
import { checkWeights, topHoldings, type Distribution } from './math.js';
import { distributionProblem } from './reanalysis.js';

/** Answers compare case- and space-insensitively; with options, they map onto the option's spelling. */
export function canonicalAnswer(answer: string, options?: string[]): string {
  const key = answer.trim().replace(/\s+/g, ' ').toLowerCase();
  const option = options?.find((candidate) => candidate.trim().replace(/\s+/g, ' ').toLowerCase() === key);
  return option ?? key;
}

export interface KnownClaim {
  id: string;
  agentId: string;
  localId: string;
  round: number;
}

export interface TurnContext {
  round: number;
  agent: DebateAgent;
  agents: DebateAgent[];
  /** Claims from earlier rounds, oldest first. */
  knownClaims: KnownClaim[];
  options?: string[];
}

export function findAgent(agents: DebateAgent[], name: string): DebateAgent | undefined {
  const key = name.trim().toLowerCase();
  return agents.find((agent) => [agent.label, agent.id, agent.model, `agent ${agent.number}`].some((alias) => alias.toLowerCase() === key));
}

function resolveReference(ref: DebaterReply['references'][number], ctx: TurnContext): ResolvedReference {
  const raw = { agent: ref.agent, ...(ref.claim ? { claim: ref.claim } : {}) };
  const base = { stance: ref.stance, ...(ref.note ? { note: ref.note } : {}), raw };
  const target = findAgent(ctx.agents, ref.agent);
  const claimKey = ref.claim?.trim().toLowerCase();
  const exact = claimKey ? ctx.knownClaims.find((claim) => claim.id.toLowerCase() === claimKey) : undefined;
  if (exact && (!target || target.id === exact.agentId)) {
    return { ...base, targetAgent: exact.agentId, targetClaim: exact.id, resolved: true };
  }
  if (!target) return { ...base, targetAgent: ref.agent, resolved: false };
  if (!claimKey) return { ...base, targetAgent: target.id, resolved: true };
  const local = [...ctx.knownClaims].reverse().find((claim) => claim.agentId === target.id && claim.localId.toLowerCase() === claimKey);
  // A known agent with an unknown claim id still engaged that agent: keep the edge, flag the claim.
  return local
    ? { ...base, targetAgent: target.id, targetClaim: local.id, resolved: true }
    : { ...base, targetAgent: target.id, unresolvedClaim: ref.claim!, resolved: true };
}

/** Which kind of answer a debate asks for (DebateConfig.answerKind). */
export type AnswerKind = 'option' | 'distribution';

/** A reply as either kind of debate parses it: a distribution debate may leave `answer` out. */
export type ParsedReply = Omit<DebaterReply, 'answer'> & { answer?: string };

/** The weights checked by the one rule (checkWeights), then keys mapped onto the options and merged. */
function distributionOf(weights: Distribution, options?: string[]): { distribution: Distribution } | { problem: string } {
  const checked = checkWeights(weights);
  if (!checked.ok) return { problem: checked.problem };
  const merged: Distribution = {};
  for (const [key, value] of Object.entries(checked.distribution)) {
    const option = canonicalAnswer(key, options);
    merged[option] = (merged[option] ?? 0) + value;
  }
  return { distribution: merged };
}

/** The answer of a distribution turn: its top holding; holdings tied at the top are all named, never one picked. */
export const topHoldingLabel = (distribution: Distribution): string => topHoldings(distribution).join(' = ');

/**
 * Turns a parsed reply into the stored record (canonical claim ids, resolved references), or refuses
 * it with a sentence naming the agent and round: a negative or all-zero distribution, or none at all
 * when the debate asks for distributions.
 */
export function readTurn(reply: ParsedReply, ctx: TurnContext, kind: AnswerKind = 'option'): { record: TurnRecord } | { refusal: string } {
  const who = `${ctx.agent.label} (${ctx.agent.id})`;
  let distribution: Distribution | undefined;
  if (reply.distribution) {
    const read = distributionOf(reply.distribution, ctx.options);
    if ('problem' in read) return { refusal: distributionProblem(who, ctx.round, read.problem) };
    distribution = read.distribution;
  }
  if (kind === 'distribution' && !distribution) return { refusal: distributionProblem(who, ctx.round, 'is missing: this debate asks for every answer as a distribution') };
  const answer = kind === 'distribution' ? topHoldingLabel(distribution!) : canonicalAnswer(reply.answer ?? '', ctx.options);
  const seen = new Set<string>();
  const claims = reply.claims.flatMap((claim) => {
    const id = claimIdOf(ctx.round, ctx.agent.number, claim.id);
    if (seen.has(id)) return [];
    seen.add(id);
    return [{ id, localId: claim.id, text: claim.text }];
  });
  const record: TurnRecord = {
    answer,
    distribution: distribution ?? { [answer]: 1 },
    ...(reply.confidence !== undefined ? { confidence: reply.confidence } : {}),
    claims,
    references: reply.references.map((ref) => resolveReference(ref, ctx)),
    evidence: [...new Set(reply.evidence.map((item) => item.trim()))],
    ...(reply.reasoning ? { reasoning: reply.reasoning } : {}),
  };
  return { record };
}

/** readTurn for an option debate, throwing its refusal. */
export function toTurnRecord(reply: DebaterReply, ctx: TurnContext): TurnRecord {
  const read = readTurn(reply, ctx);
  if ('refusal' in read) throw new UserFacingError(read.refusal, { code: 'debate-distribution-invalid' });
  return read.record;
}
