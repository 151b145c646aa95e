import { z } from 'zod';
import type { DeliberationState, Point } from '../../schemas/argumentation.js';
import { placeDismissed, placeNotEvaluated, terminate } from './mutations.js';
import { nextPointId } from './queries.js';
import { parseConsulteeReply, type ParsedReply } from './reply-parser.js';
import { accept, draft, refuse, requireActive, type MoveContext, type MoveResult } from './result.js';

export const ReplyRecordInput = z.object({
  text: z.string().describe('verbatim'),
  sessionId: z.string().optional(),
  formatFailure: z.string().optional().describe('declare one the parser cannot see'),
});
export type ReplyRecordInput = z.infer<typeof ReplyRecordInput>;

export function detectFormatFailure(parsed: ParsedReply): string | undefined {
  if (parsed.points.length === 0 && parsed.challengeRefs.length === 0) return 'no numbered points and no challenge references';
  if (parsed.unlabeledVerificationClaims.length > 0) {
    return `verification claimed without an EVIDENCE/INFERENCE/GUESS label in point(s) ${parsed.unlabeledVerificationClaims.join(', ')}`;
  }
  return undefined;
}

/** Where a new numbered point goes in the current phase: into play, or to Not Evaluated. */
function admit(state: DeliberationState, p: ParsedReply['points'][number]): { status: Point['status']; reason?: 'phase-violation' | 'phase-closed'; needsDecisive?: boolean } {
  if (state.phase === null || state.phase === 'CONSTRUCTIVE') return { status: 'pending-triage' };
  if (state.phase === 'DEVELOPMENT') {
    return p.pointRefs.length > 0 || p.label === 'EVIDENCE' ? { status: 'pending-triage' } : { status: 'not-evaluated', reason: 'phase-violation' };
  }
  return p.label === 'EVIDENCE' ? { status: 'pending-triage', needsDecisive: true } : { status: 'not-evaluated', reason: 'phase-closed' };
}

function handleChallenges(next: DeliberationState, parsed: ParsedReply, effects: string[]): void {
  const referenced = new Map(parsed.challengeRefs.map((r) => [r.id, r.text]));
  for (const c of next.challenges) {
    if ((c.status !== 'open' && c.status !== 'dropped') || c.raisedIter >= next.n) continue;
    if (parsed.concessions.includes(c.id)) {
      c.status = 'conceded';
      placeDismissed(next, { pointId: c.pointId, tag: 'CONCEDED', reason: `The consultee conceded ${c.id} in iteration ${next.n}: ${(referenced.get(c.id) ?? '').slice(0, 200)}`, iter: next.n });
      effects.push(`${c.id} conceded: ${c.pointId} -> Dismissed CONCEDED (iter ${next.n})`);
    } else if (referenced.has(c.id)) {
      c.status = 'defended';
      c.defense = referenced.get(c.id);
      c.defenseIter = next.n;
      effects.push(`${c.id} defended: judge it with challenge_resolve`);
    } else if (c.type === 'SKEPTICAL' && !c.reminderSent) {
      c.status = 'dropped';
      c.reminderSent = true;
      effects.push(`${c.id} dropped: the next prompt carries a reminder`);
    } else {
      c.status = 'undefended';
      const why = c.type === 'REJECT' ? 'its single defense round passed unanswered' : 'it went unanswered after a reminder';
      placeDismissed(next, { pointId: c.pointId, tag: 'UNDEFENDED', reason: `UNDEFENDED (iter ${next.n}): ${c.id} ${why}; objection: ${c.objection}`, iter: next.n });
      effects.push(`${c.id} undefended: ${c.pointId} -> Dismissed UNDEFENDED (iter ${next.n})`);
    }
  }
  const known = new Set(next.challenges.map((c) => c.id));
  const unknown = parsed.challengeRefs.map((r) => r.id).filter((id) => !known.has(id));
  if (unknown.length) effects.push(`reply names unknown challenge(s) ${unknown.join(', ')}: ignored`);
}

export function replyRecord(state: DeliberationState, input: ReplyRecordInput, ctx: MoveContext): MoveResult {
  const guard = requireActive(state);
  if (guard) return guard;
  if (state.replyRecorded) {
    return refuse(state, 'reply-already-recorded', `Iteration ${state.n} already has its reply; evaluate it, then call iteration_advance.`);
  }
  const parsed = parseConsulteeReply(input.text);
  const next = draft(state);
  if (input.sessionId) next.consulteeSessionId = input.sessionId;
  const failure = input.formatFailure ?? detectFormatFailure(parsed);
  if (failure) {
    next.counters.consecutiveFormatFailures += 1;
    next.counters.totalFormatFailures += 1;
    next.counters.lastFailure = failure;
    if (next.counters.consecutiveFormatFailures >= 2) {
      terminate(next, 'early-exit-quality', `two consecutive format failures (last: ${failure})`);
      return accept(next, [`format failure: ${failure}`, 'second consecutive format failure: early exit (quality)'], ctx);
    }
    return accept(next, [`format failure: ${failure}; n stays ${next.n}, no defense window used; send the retry prompt`], ctx);
  }
  next.counters.consecutiveFormatFailures = 0;
  const effects: string[] = [`reply recorded for iteration ${next.n}`];
  if (next.mode !== 'quick') handleChallenges(next, parsed, effects);
  const challengeIds = new Set(next.challenges.map((c) => c.id));
  let admitted = 0;
  for (const p of parsed.points) {
    if (p.challengeRefs.some((id) => challengeIds.has(id))) continue; // a defense, not a new point
    const route = admit(next, p);
    const id = nextPointId(next);
    next.points.push({ id, iter: next.n, text: p.text, label: p.label, source: 'consultee', status: route.status, needsDecisive: route.needsDecisive });
    if (route.reason) {
      placeNotEvaluated(next, { ref: id, reason: route.reason, note: `new argument in ${next.phase}`, iter: next.n });
      effects.push(`${id} -> Not Evaluated (${route.reason})`);
    } else {
      admitted += 1;
    }
  }
  if (admitted) effects.push(`${admitted} new point(s) to triage`);
  next.scope.newPoints = admitted;
  next.replyRecorded = true;
  return accept(next, effects, ctx);
}
