import { z } from 'zod';
import type { Challenge, DeliberationState, PendingReading, Point } from '../../../schemas/argumentation.js';
import { keepAnswer, placeDismissed, placeNotEvaluated, surfaceQuestion, unplace } from '../core/mutations.js';
import { concededNow, findChallenge, findPoint } from '../core/queries.js';
import { narrowedClaim } from '../reading/reply-answers.js';
import { readItem } from './item-readings.js';
import { placementOf } from './supersede.js';
import { accept, draft, refuse, requireActive, type MoveContext, type MoveResult } from './result.js';

/** The orchestrator confirms or corrects how parley read the last reply (refs from the consult result). */
export const ReadingCorrection = z.object({
  ref: z.string().describe('S1 section, U1 question, A1 answer, M1 mention, P.. point, C.. challenge'),
  as: z.enum(['point', 'question', 'defense', 'partial', 'concession']).describe('partial: a defense of the narrowed claim it keeps'),
  challenge: z.string().optional().describe('defense: which challenge'),
  point: z.string().optional().describe('as point: append to this new point'),
});
export type ReadingCorrection = z.infer<typeof ReadingCorrection>;

const USABLE: Record<PendingReading['kind'] | 'challenge', ReadingCorrection['as'][]> = {
  section: ['point', 'question', 'defense'],
  question: ['question', 'point'],
  answer: ['defense', 'partial', 'concession', 'point'],
  mention: ['defense', 'partial', 'point'],
  reference: ['point'],
  challenge: ['defense', 'partial', 'concession'],
};

/** Undoes what the reading did to a challenge this iteration, so it can be answered as the orchestrator reads it. */
function reopen(next: DeliberationState, c: Challenge): void {
  if (c.status === 'undefended' || c.status === 'conceded') {
    next.buckets.dismissed = next.buckets.dismissed.filter((d) => !(d.pointId === c.pointId && d.iter === next.n));
    const point = findPoint(next, c.pointId);
    if (point) point.status = 'contested';
  }
  if (c.status === 'dropped' && c.droppedIter === next.n) c.reminderSent = false;
}

type AnswerReading = 'defense' | 'partial' | 'concession';

function answerAs(next: DeliberationState, c: Challenge, text: string, as: AnswerReading): string {
  reopen(next, c);
  if (as === 'concession') {
    c.status = 'conceded';
    c.defense = text;
    placeDismissed(next, { pointId: c.pointId, tag: 'CONCEDED', reason: `The consultee conceded ${c.id} in iteration ${next.n} (as read by the orchestrator).`, iter: next.n });
    return `${c.id} read as a concession: ${c.pointId} -> Dismissed CONCEDED`;
  }
  const partial = as === 'partial';
  Object.assign(c, { status: 'defended', defense: text, defenseIter: next.n, partial: partial || undefined, narrowedClaim: partial ? (c.narrowedClaim ?? narrowedClaim(text)) : undefined, unclear: undefined });
  return `${c.id} read as ${partial ? 'a partial concession (a defense of a narrowed claim)' : 'a defense'}: judge it`;
}

/** Quick mode: an earlier point objected to, which this reply answered or was due to answer. */
function quickPoint(state: DeliberationState, id: string): Point | undefined {
  const p = state.mode === 'quick' ? findPoint(state, id) : undefined;
  if (!p || p.iter >= state.n) return undefined;
  return p.status === 'contested' || concededNow(state, p.id) ? p : undefined;
}


function answerPointAs(next: DeliberationState, p: Point, text: string, as: AnswerReading): string {
  next.buckets.dismissed = next.buckets.dismissed.filter((d) => !(d.pointId === p.id && d.iter === next.n && d.tag === 'CONCEDED'));
  Object.assign(p, { status: 'contested', defense: text, narrowed: as === 'partial' ? (p.narrowed ?? narrowedClaim(text)) : undefined, answer: as === 'concession' ? undefined : as });
  if (as !== 'concession') return `${p.id} read as ${as === 'partial' ? 'a partial concession' : 'a defense'}: place it (bucket)`;
  placeDismissed(next, { pointId: p.id, tag: 'CONCEDED', reason: `The consultee conceded the objection to ${p.id} in iteration ${next.n} (as read by the orchestrator).`, iter: next.n });
  return `${p.id} read as a concession -> Dismissed CONCEDED`;
}

/** A new point of this reply the orchestrator may still change: not judged yet. */
function unjudged(state: DeliberationState, id: string): Point | undefined {
  const p = findPoint(state, id);
  return p && p.iter === state.n && p.source === 'consultee' && ['pending-triage', 'not-evaluated'].includes(p.status) ? p : undefined;
}

/** Was the challenge answered, dropped or closed by this iteration's reply (so its reading may change)? */
function readThisIteration(state: DeliberationState, c: Challenge): boolean {
  if (c.raisedIter >= state.n) return false;
  if (c.status === 'open') return true;
  if (c.status === 'defended') return c.defenseIter === state.n;
  if (c.status === 'dropped' || c.status === 'undefended') return c.droppedIter === state.n;
  if (c.status === 'conceded') return concededNow(state, c.pointId);
  return false;
}

export function correctReading(state: DeliberationState, input: ReadingCorrection, ctx: MoveContext): MoveResult {
  const guard = requireActive(state);
  if (guard) return guard;
  const reading = state.readings?.find((r) => r.iter === state.n);
  if (!state.replyRecorded || !reading) return refuse(state, 'no-reading', `There is no reply of iteration ${state.n} to read yet.`);
  const next = draft(state);
  const current = next.readings!.find((r) => r.iter === next.n)!;
  const itemRead = readItem(next, input.ref, input.as);
  if (itemRead) return 'effect' in itemRead ? accept(next, [itemRead.effect], ctx) : refuse(state, itemRead.rule, itemRead.refused);
  const challenge = findChallenge(next, input.ref);
  const objected = quickPoint(next, input.ref);
  // A new point of this reply that is really part of an answer (a quote inside "Re C2") reads as a mention would.
  const ownPoint = next.points.find((p) => p.id === input.ref && p.iter === next.n && p.source === 'consultee');
  const item = current.pending.find((p) => p.ref === input.ref) ?? (ownPoint && input.as === 'defense' ? { ref: ownPoint.id, kind: 'mention' as const, text: ownPoint.text } : undefined);
  if (!item && !challenge && !objected) {
    return refuse(state, 'unknown-reading-ref', `${input.ref} is not a part of the last reply awaiting a reading (${current.pending.map((p) => p.ref).join(', ') || 'none'}) nor a challenge.`);
  }
  const kind = item ? item.kind : 'challenge';
  if (!USABLE[kind].includes(input.as)) return refuse(state, 'reading-kind', `A ${kind} can be read as ${USABLE[kind].join(' or ')}, not as ${input.as}.`);
  if (item?.resolved) return refuse(state, 'already-read', `${input.ref} was already read as ${item.resolved}.`);

  if (challenge) {
    if (!readThisIteration(state, challenge)) return refuse(state, 'challenge-not-answered-now', `${challenge.id} was not answered in this iteration's reply.`);
    return accept(next, [answerAs(next, challenge, challenge.defense ?? '', input.as as AnswerReading)], ctx);
  }
  if (!item && objected) {
    if (!objected.defense) return refuse(state, 'challenge-not-answered-now', `${objected.id} got no answer in this iteration's reply.`);
    return accept(next, [answerPointAs(next, objected, objected.defense, input.as as AnswerReading)], ctx);
  }
  const pending = item!;
  const mark = () => {
    const stored = current.pending.find((p) => p.ref === pending.ref);
    if (stored) stored.resolved = input.as;
  };
  if (input.as === 'question') {
    const q = surfaceQuestion(next, pending.text);
    mark();
    return accept(next, [`${pending.ref} surfaced as ${q}`], ctx);
  }
  const mentioningPoint = pending.kind === 'mention' ? findPoint(next, pending.ref) : undefined;
  if (input.as === 'point') {
    if (mentioningPoint) {
      mark();
      return accept(next, [`${pending.ref} stays a new point`], ctx);
    }
    if (input.point) {
      // "2. ... \n\nIt also ..." split off as a section: it goes back to the point it continues.
      const host = unjudged(next, input.point);
      if (!host) return refuse(state, 'point-already-judged', `${input.point} is not a new point of this reply awaiting judgment; ${pending.ref} can only be appended to one.`);
      host.text = `${host.text}\n\n${pending.title ? `${pending.title}\n` : ''}${pending.text}`;
      mark();
      return accept(next, [`${pending.ref} appended to ${host.id}`], ctx);
    }
    // Past every id this iteration used (a duplicate number got one above the reply's numbers).
    const number = Math.max(0, ...next.points.filter((p) => p.iter === next.n).map((p) => Number(p.id.split('.')[1]) || 0)) + 1;
    const id = `P${next.n}.${number}`;
    const late = next.phase === 'DEVELOPMENT' || next.phase === 'CRYSTALLIZATION';
    const extendsPoint = pending.target && findPoint(next, pending.target) ? pending.target : undefined;
    const notEvaluated = late && !(extendsPoint && next.phase === 'DEVELOPMENT');
    next.points.push({ id, iter: next.n, number, text: pending.title ? `${pending.title}: ${pending.text}` : pending.text, source: 'consultee', status: notEvaluated ? 'not-evaluated' : 'pending-triage', ...(extendsPoint ? { refs: [extendsPoint] } : {}) });
    if (notEvaluated) placeNotEvaluated(next, { ref: id, reason: next.phase === 'DEVELOPMENT' ? 'phase-violation' : 'phase-closed', note: `${pending.ref} read as a new argument in ${next.phase}`, iter: next.n });
    else next.scope.newPoints += 1;
    mark();
    return accept(next, [`${pending.ref} read as ${id}${notEvaluated ? ' -> Not Evaluated (a new argument late in the deliberation)' : ': judge it'}`], ctx);
  }
  const named = input.challenge ?? pending.target ?? '';
  const onPoint = quickPoint(next, named);
  const target = findChallenge(next, named);
  if (!target && !onPoint) return refuse(state, 'unknown-challenge', `Say which ${next.mode === 'quick' ? 'point' : 'challenge'} ${pending.ref} answers (challenge: "${next.mode === 'quick' ? 'P1.1' : 'C1'}").`);
  if (target && !readThisIteration(state, target)) return refuse(state, 'challenge-not-answered-now', `${target.id} is ${target.status}; only a challenge this reply was due to answer can take ${pending.ref}.`);
  let text = pending.text;
  if (mentioningPoint) {
    const point = unjudged(next, mentioningPoint.id);
    if (!point) return refuse(state, 'point-already-judged', `${pending.ref} was already judged; it can no longer be read as a defense.`);
    // It keeps its id (the consultee was told it): an item of that answer now, judged with it.
    if (point.status === 'pending-triage') next.scope.newPoints = Math.max(0, next.scope.newPoints - 1);
    point.was = placementOf(next, point);
    unplace(next, point.id);
    Object.assign(point, { status: 'part-of-answer', partOf: target?.id ?? onPoint?.id });
    text = point.text;
  }
  const as = input.as as AnswerReading;
  mark();
  if (!target && onPoint) {
    if (onPoint.status === 'contested' && onPoint.defense) text = `${onPoint.defense}\n\n${text}`;
    return accept(next, [`${pending.ref} read as an answer to ${onPoint.id}`, answerPointAs(next, onPoint, text, as)], ctx);
  }
  // A part that goes on with a defense this reply already made is more of the same defense.
  if (target!.status === 'defended' && target!.defenseIter === next.n && target!.defense) text = `${target!.defense}\n\n${text}`;
  keepAnswer(target!, next.n, text);
  return accept(next, [`${pending.ref} read as an answer to ${target!.id}`, answerAs(next, target!, text, as)], ctx);
}
