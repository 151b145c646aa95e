import type { DebaterReply, ResolvedReference, TurnRecord } from '../../schemas/debate.js';
import type { DebateAgent } from './agents.js';
import { claimIdOf } from './agents.js';
import { normalize, type Distribution } from './math.js';

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

function distributionOf(reply: DebaterReply, answer: string, options?: string[]): Distribution {
  if (reply.distribution) {
    const merged: Distribution = {};
    for (const [key, value] of Object.entries(reply.distribution)) {
      const option = canonicalAnswer(key, options);
      merged[option] = (merged[option] ?? 0) + value;
    }
    const normalized = normalize(merged);
    if (Object.keys(normalized).length > 0) return normalized;
  }
  return { [answer]: 1 };
}

/** Turns a parsed reply into the stored record: canonical claim ids, resolved references. */
export function toTurnRecord(reply: DebaterReply, ctx: TurnContext): TurnRecord {
  const answer = canonicalAnswer(reply.answer, ctx.options);
  const seen = new Set<string>();
  const claims = reply.claims.flatMap((claim) => {
    const id = claimIdOf(ctx.round, ctx.agent.number, claim.id);
    if (seen.has(id)) return [];
    seen.add(id);
    return [{ id, localId: claim.id, text: claim.text }];
  });
  return {
    answer,
    distribution: distributionOf(reply, answer, ctx.options),
    ...(reply.confidence !== undefined ? { confidence: reply.confidence } : {}),
    claims,
    references: reply.references.map((ref) => resolveReference(ref, ctx)),
    evidence: [...new Set(reply.evidence.map((item) => item.trim()))],
    ...(reply.reasoning ? { reasoning: reply.reasoning } : {}),
  };
}
