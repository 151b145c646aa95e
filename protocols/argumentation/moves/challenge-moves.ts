import { z } from 'zod';
import type { Challenge, DeliberationState } from '../../../schemas/argumentation.js';
import { AgreedFieldsPlain, blockedRule, evidenceGate, isRefusal, substantive } from './gates.js';
import { appendFact, placeAgreed, placeDismissed, placeUnresolved, recordPosition, surfaceQuestion } from '../core/mutations.js';
import { DEADLOCK_ROUNDS, findChallenge, iterationCap } from '../core/queries.js';
import { accept, draft, refuse, requireActive, requireNotQuick, type MoveContext, type MoveResult } from './result.js';


// Judged beside the point items, whose AgreedFields describe these fields once.
export const ChallengeResolveInput = z.object({
  ...AgreedFieldsPlain,
  challengeId: z.string(),
  verdict: z.enum(['accepted', 'rebutted', 'rejected', 'deadlock']).describe('rebutted: SKEPTICAL only'),
  reason: z.string(),
  upgradeTo: z.enum(['AGREE', 'SKEPTICAL']).optional().describe('REJECT accepted: where the point goes'),
  deadlock: z.enum(['missing-data', 'definitional', 'criteria']).optional(),
  measurement: z.string().optional(),
  threshold: z.string().optional(),
  verdictChange: z.string().optional(),
  question: z.string().optional().describe('for the user'),
  claim: z.string().optional().describe('accepted: the claim as it now stands, if the reading cut it wrong'),
});
export type ChallengeResolveInput = z.infer<typeof ChallengeResolveInput>;

function agree(next: DeliberationState, c: Challenge, gate: Exclude<ReturnType<typeof evidenceGate>, { ok: boolean }>, reason: string, claim?: string): string[] {
  const fact = appendFact(next, { text: `${c.pointId}: revising from ${c.type} to AGREE`, tag: 'revision', justification: `defense on ${c.id} accepted: ${reason}` });
  recordPosition(next, { pointId: c.pointId, classification: 'AGREE', revision: { from: c.type, because: reason } });
  placeAgreed(next, { pointId: c.pointId, ...gate, iter: next.n });
  const point = next.points.find((p) => p.id === c.pointId);
  // A partial concession accepted: the point stands as the consultee narrowed it, or as the orchestrator states it
  // when the reading could not cut the narrowed claim out of a long answer.
  if (point && (c.partial || claim?.trim())) point.narrowed = claim?.trim() || c.narrowedClaim;
  // No concession, a claim all the same: the orchestrator agrees with less than the point says.
  if (point && !c.partial && claim?.trim()) point.narrowedBy = 'orchestrator';
  return [`${c.id} defense accepted: ${c.pointId} -> Agreed (${gate.evidenceType}); ${fact.id} records the revision`];
}

function resolveDeadlock(state: DeliberationState, c: Challenge, input: ChallengeResolveInput, reason: string, ctx: MoveContext): MoveResult {
  const rounds = state.n - c.openedIter;
  if (rounds < DEADLOCK_ROUNDS && state.n < iterationCap(state)) {
    return refuse(state, 'deadlock-too-early', `${c.id} has been open ${rounds} iteration(s); deadlock needs ${DEADLOCK_ROUNDS}+ (or the last iteration).`);
  }
  if (!input.deadlock) return refuse(state, 'deadlock-kind', 'Classify the deadlock: missing-data, definitional or criteria.');
  if (input.deadlock === 'missing-data') {
    const bad = blockedRule(state, input);
    if (bad) return bad;
  }
  const next = draft(state);
  const ch = findChallenge(next, c.id) as Challenge;
  const crux = `${c.objection} (${reason})`;
  if (input.deadlock === 'definitional' && !ch.clarificationRequested) {
    ch.clarificationRequested = true;
    ch.status = 'open';
    ch.raisedIter = next.n;
    ch.rebuttal = `Define the disputed terms: ${reason}`;
    return accept(next, [`${c.id} definitional mismatch: terms clarified in the next prompt, one retry`], ctx);
  }
  ch.status = 'resolved';
  if (input.deadlock === 'missing-data') {
    ch.resolution = 'blocked';
    placeUnresolved(next, { pointId: c.pointId, status: 'blocked', crux, measurement: input.measurement, threshold: input.threshold, verdictChange: input.verdictChange, iter: next.n });
    const q = surfaceQuestion(next, input.question ?? `Can you supply ${input.measurement}? It matters at ${input.threshold}: ${input.verdictChange}`, c.pointId);
    return accept(next, [`${c.id} deadlock (missing data): ${c.pointId} -> Unresolved blocked; ${q} surfaced`], ctx);
  }
  ch.resolution = input.deadlock === 'criteria' ? 'tradeoff' : 'definitional';
  placeUnresolved(next, { pointId: c.pointId, status: ch.resolution, crux, iter: next.n });
  const effects = [`${c.id} deadlock (${input.deadlock}): ${c.pointId} -> Unresolved ${ch.resolution}`];
  if (input.deadlock === 'criteria') {
    const q = surfaceQuestion(next, input.question ?? `Tradeoff on ${c.pointId}: ${crux}. Which criterion should win?`, c.pointId);
    effects.push(`${q} surfaced: the user chooses`);
  }
  return accept(next, effects, ctx);
}

export function challengeResolve(state: DeliberationState, input: ChallengeResolveInput, ctx: MoveContext): MoveResult {
  const guard = requireActive(state) ?? requireNotQuick(state, 'challenges');
  if (guard) return guard;
  const c = findChallenge(state, input.challengeId);
  if (!c) return refuse(state, 'unknown-challenge', `No challenge ${input.challengeId}.`);
  const reason = substantive(state, input.reason, `Resolving ${c.id}`);
  if (typeof reason !== 'string') return reason;
  if (input.verdict === 'deadlock') {
    if (!['open', 'dropped', 'defended'].includes(c.status)) return refuse(state, 'challenge-settled', `${c.id} is already ${c.status}.`);
    return resolveDeadlock(state, c, input, reason, ctx);
  }
  if (c.status !== 'defended') {
    return refuse(state, 'no-defense-to-judge', `${c.id} is ${c.status}: only a defended challenge (referenced in a reply) can be accepted, rebutted or rejected.`);
  }
  const next = draft(state);
  const ch = findChallenge(next, c.id) as Challenge;
  if (input.verdict === 'rebutted') {
    if (c.type === 'REJECT') return refuse(state, 'reject-single-round', `${c.id} is a REJECT challenge: one defense round only; accept (upgradeTo) or reject it.`);
    Object.assign(ch, { status: 'open', raisedIter: next.n, rebuttal: reason, reminderSent: false, ...(input.evidence?.trim() ? { evidence: input.evidence.trim() } : {}) });
    return accept(next, [`${c.id} rebutted: the window stays open, the counter goes in the next prompt`], ctx);
  }
  if (input.verdict === 'rejected') {
    if (!input.evidence?.trim()) return refuse(state, 'rejection-needs-evidence', `Rejecting the defense on ${c.id} needs evidence (Dismissed = rejection with evidence).`);
    ch.status = 'resolved';
    ch.resolution = 'rejected';
    placeDismissed(next, { pointId: c.pointId, tag: 'REJECTED', reason: `${reason} (evidence: ${input.evidence})`, iter: next.n });
    return accept(next, [`${c.id} defense rejected: ${c.pointId} -> Dismissed REJECTED`], ctx);
  }
  const to = c.type === 'REJECT' ? input.upgradeTo : 'AGREE';
  if (!to) return refuse(state, 'upgrade-target', `Accepting the defense on REJECT ${c.id} upgrades the point: say upgradeTo AGREE or SKEPTICAL.`);
  if (to === 'SKEPTICAL') {
    Object.assign(ch, { type: 'SKEPTICAL', status: 'open', raisedIter: next.n, rebuttal: reason, reminderSent: false });
    recordPosition(next, { pointId: c.pointId, classification: 'SKEPTICAL', revision: { from: 'REJECT', because: reason } });
    const fact = appendFact(next, { text: `${c.pointId}: revising from REJECT to SKEPTICAL`, tag: 'revision', justification: reason });
    return accept(next, [`${c.id} upgraded to SKEPTICAL: standard window; ${fact.id} records the revision`], ctx);
  }
  // A narrowed claim is a claim: accepted, it is what the point now says, so it must be stated.
  if (c.partial && !c.narrowedClaim?.trim() && !input.claim?.trim()) {
    return refuse(state, 'narrowed-claim-required', `${c.id}'s answer ${c.unclear ? 'gives something up, and parley could not tell whether all of it' : 'keeps part of the claim, and parley could not cut out which part'}: accept it with claim (the claim as it now stands), or read ${c.id} as a concession (reading).`);
  }
  const gate = evidenceGate(state, c.pointId, input);
  if (isRefusal(gate)) return gate;
  ch.status = 'resolved';
  ch.resolution = 'accepted';
  ch.unclear = undefined;
  return accept(next, agree(next, ch, gate, reason, input.claim), ctx);
}
