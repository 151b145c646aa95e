import type { Challenge, DeliberationState, PendingReading } from '../../../schemas/argumentation.js';
import { keepAnswer, placeDismissed } from '../core/mutations.js';
import { findPoint, unsettledChallenges } from '../core/queries.js';
import type { ReadAnswer, Reading } from '../reading/reading.js';

/**
 * What a reply's answers do: a concession in words that give the claim up dismisses it; a partial one
 * keeps a narrowed claim; one the reading cannot settle (all of it, or part?) waits for the orchestrator;
 * silence uses up a defense window. Returns, for each id the reply answered, the id its items belong to.
 */
export type AnswerOwners = Map<string, string>;

/**
 * What an answer asks of the orchestrator (a verdict, a placement, a reading), about one point: said
 * only once the reply's points are recorded, and not if the same reply replaced that point.
 */
export interface AnswerAsk {
  point: string;
  line: string;
}

const nextAnswerRef = (pending: PendingReading[]) => `A${pending.filter((p) => p.kind === 'answer').length + 1}`;

/** A concession's record says who conceded what, when; the words stay with the challenge, quoted where shown. */
const concededReason = (what: string, n: number) => `The consultee conceded ${what} in iteration ${n}.`;

function answerChallenge(next: DeliberationState, c: Challenge, a: ReadAnswer, effects: string[], asks: AnswerAsk[]): void {
  keepAnswer(c, next.n, a.own);
  if (a.kind === 'concession') {
    c.status = 'conceded';
    // The words stay with the challenge: the orchestrator may read them as a defense after all.
    c.defense = a.text;
    placeDismissed(next, { pointId: c.pointId, tag: 'CONCEDED', reason: concededReason(c.id, next.n), iter: next.n });
    effects.push(`${c.id} conceded: ${c.pointId} -> Dismissed CONCEDED`);
    return;
  }
  const partial = a.kind === 'partial-concession' || a.kind === 'unclear';
  Object.assign(c, { status: 'defended', defense: a.text, defenseIter: next.n, partial: partial || undefined, narrowedClaim: partial ? a.narrowedClaim : undefined, unclear: a.kind === 'unclear' || undefined, answerOwnWords: a.own !== a.text ? a.own : undefined });
  const line = a.kind === 'unclear' ? `${c.id}: gives something up, all or part? read it (as concession, or as partial with the claim it keeps)` : `${c.id} ${partial ? 'partly conceded (a defense of a narrowed claim)' : 'defended'}: judge it`;
  asks.push({ point: c.pointId, line });
}

export function recordChallengeAnswers(next: DeliberationState, reading: Reading, pending: PendingReading[], effects: string[], asks: AnswerAsk[]): AnswerOwners {
  const owners: AnswerOwners = new Map();
  const byRef = new Map<string, ReadAnswer>();
  for (const a of reading.answers) {
    // "Re P2.3" answers the challenge on P2.3 when there is one.
    const onPoint = /^P/.test(a.ref) ? unsettledChallenges(next).find((c) => c.pointId === a.ref) : undefined;
    const ref = onPoint?.id ?? a.ref;
    const c = next.challenges.find((x) => x.id === ref);
    if (c && (c.status === 'open' || c.status === 'dropped') && c.raisedIter < next.n) {
      byRef.set(ref, a);
      owners.set(a.ref, c.id);
    } else pending.push({ ref: nextAnswerRef(pending), kind: 'answer', target: a.ref, text: a.text });
  }
  for (const c of next.challenges) {
    if ((c.status !== 'open' && c.status !== 'dropped') || c.raisedIter >= next.n) continue;
    const a = byRef.get(c.id);
    if (a) answerChallenge(next, c, a, effects, asks);
    else if (c.type === 'SKEPTICAL' && !c.reminderSent) {
      Object.assign(c, { status: 'dropped', reminderSent: true, droppedIter: next.n });
      effects.push(`${c.id} dropped: the next prompt carries a reminder`);
    } else {
      c.status = 'undefended';
      c.droppedIter = next.n;
      const why = c.type === 'REJECT' ? 'its single defense round passed unanswered' : 'went unanswered after a reminder';
      placeDismissed(next, { pointId: c.pointId, tag: 'UNDEFENDED', reason: `${c.id} ${why} (iteration ${next.n}); objection: ${c.objection}`, iter: next.n });
      effects.push(`${c.id} undefended: ${c.pointId} -> Dismissed UNDEFENDED`);
    }
  }
  return owners;
}

/** Quick mode has no challenge ids: objections are answered by point id. */
export function recordObjectionAnswers(next: DeliberationState, reading: Reading, pending: PendingReading[], effects: string[], asks: AnswerAsk[]): AnswerOwners {
  const owners: AnswerOwners = new Map();
  for (const a of reading.answers) {
    const point = findPoint(next, a.ref);
    if (!point || point.status !== 'contested') {
      pending.push({ ref: nextAnswerRef(pending), kind: 'answer', target: a.ref, text: a.text });
      continue;
    }
    owners.set(a.ref, point.id);
    point.defense = a.text;
    point.answerOwnWords = a.own !== a.text ? a.own : undefined;
    if (a.kind === 'concession') {
      placeDismissed(next, { pointId: point.id, tag: 'CONCEDED', reason: concededReason(`the objection to ${point.id}`, next.n), iter: next.n });
      effects.push(`${point.id} conceded -> Dismissed CONCEDED`);
      continue;
    }
    point.answer = a.kind === 'defense' ? 'defense' : a.kind === 'unclear' ? 'unclear' : 'partial';
    if (a.narrowedClaim && a.kind !== 'defense') point.narrowed = a.narrowedClaim;
    const line = a.kind === 'unclear' ? `${point.id}: gives something up, all or part? read it (as concession, or as partial), then place it` : `${point.id} ${a.kind === 'partial-concession' ? 'partly conceded (a defense of a narrowed claim)' : 'defended'}: place it (bucket)`;
    asks.push({ point: point.id, line });
  }
  return owners;
}
