import type {
  AgreedItem,
  Challenge,
  DeliberationState,
  DismissedItem,
  Fact,
  NotEvaluatedItem,
  Position,
  TerminationReason,
  UnresolvedItem,
} from '../../../schemas/argumentation.js';
import { findPoint, nextFactId, nextQuestionId } from './queries.js';

/** Removes a point from every bucket so that placing it again keeps it in exactly one place. */
export function unplace(state: DeliberationState, pointId: string): void {
  state.buckets.agreed = state.buckets.agreed.filter((i) => i.pointId !== pointId);
  state.buckets.dismissed = state.buckets.dismissed.filter((i) => i.pointId !== pointId);
  state.buckets.unresolved = state.buckets.unresolved.filter((i) => i.pointId !== pointId);
  state.notEvaluated = state.notEvaluated.filter((i) => i.ref !== pointId);
}

function setStatus(state: DeliberationState, pointId: string, status: DeliberationState['points'][number]['status']): void {
  const point = findPoint(state, pointId);
  if (!point) throw new Error(`bug: unknown point ${pointId}`);
  point.status = status;
}

export function placeAgreed(state: DeliberationState, item: AgreedItem): void {
  unplace(state, item.pointId);
  state.buckets.agreed.push(item);
  setStatus(state, item.pointId, 'agreed');
}

/** New evidence for a point that stays Agreed: its entry is replaced where it stands. */
export function updateAgreed(state: DeliberationState, item: AgreedItem): void {
  state.buckets.agreed = state.buckets.agreed.map((i) => (i.pointId === item.pointId ? item : i));
}

export function placeDismissed(state: DeliberationState, item: DismissedItem): void {
  unplace(state, item.pointId);
  state.buckets.dismissed.push(item);
  setStatus(state, item.pointId, 'dismissed');
}

export function placeUnresolved(state: DeliberationState, item: UnresolvedItem): void {
  unplace(state, item.pointId);
  state.buckets.unresolved.push(item);
  setStatus(state, item.pointId, 'unresolved');
}

/** Points and facts may both be listed as Not Evaluated; only points carry a status. */
export function placeNotEvaluated(state: DeliberationState, item: NotEvaluatedItem): void {
  if (item.ref.startsWith('P')) {
    unplace(state, item.ref);
    setStatus(state, item.ref, 'not-evaluated');
  } else {
    state.notEvaluated = state.notEvaluated.filter((i) => i.ref !== item.ref);
  }
  state.notEvaluated.push(item);
}

/** Takes a point out of every bucket and back into play (a revision reopens it). */
export function reopenPoint(state: DeliberationState, pointId: string): void {
  unplace(state, pointId);
  setStatus(state, pointId, 'contested');
}

/** Keeps what the consultee said in answer to a challenge; reading the same reply again replaces that iteration's words. */
export function keepAnswer(c: Challenge, iter: number, text: string): void {
  c.answers = [...(c.answers ?? []).filter((a) => a.iter !== iter), { iter, text }];
}

export function appendFact(state: DeliberationState, fact: Omit<Fact, 'id' | 'addedIter' | 'changedIter'>): Fact {
  const full: Fact = { ...fact, id: nextFactId(state), addedIter: state.n, changedIter: state.n };
  state.ledger.push(full);
  return full;
}

export function recordPosition(state: DeliberationState, position: Omit<Position, 'iter'>): void {
  state.positions.push({ ...position, iter: state.n });
}

export function surfaceQuestion(state: DeliberationState, text: string, pointId?: string): string {
  const id = nextQuestionId(state);
  state.surfacedQuestions.push({ id, text, pointId, iter: state.n });
  return id;
}

export function terminate(state: DeliberationState, reason: TerminationReason, note: string): void {
  state.status = 'terminated';
  state.termination = { reason, iter: state.n, note };
}
