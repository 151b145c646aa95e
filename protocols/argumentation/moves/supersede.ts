import type { DeliberationState, Point, PointPlacement } from '../../../schemas/argumentation.js';
import { isCurrent } from '../core/claims.js';
import { unplace } from '../core/mutations.js';
import { challengeOnPoint, findPoint } from '../core/queries.js';

/**
 * Versions of a claim. A later point that replaces, corrects or narrows an earlier one makes the earlier
 * one history: it leaves its bucket (Agreed included) and its former place is kept in `was`, so the
 * record shows it under its successor and an undo restores it. The successor is judged like any point.
 */

/** Why `oldId` cannot be replaced by `newId`, or undefined when it can. */
export function supersessionBlocker(state: DeliberationState, newId: string, oldId: string): string | undefined {
  const successor = findPoint(state, newId);
  const old = findPoint(state, oldId);
  if (!successor) return `there is no point ${newId}`;
  if (!old) return `there is no point ${oldId}`;
  if (old.id === successor.id) return `${newId} cannot replace itself`;
  if (old.source !== 'consultee' || successor.source !== 'consultee') return 'only the consultee\'s own points have versions';
  if (!isCurrent(old)) return `${oldId} is ${old.status === 'superseded' ? `already replaced by ${old.supersededBy}` : 'part of an answer, not a claim of its own'}`;
  if (successor.supersedes) return `${newId} already replaces ${successor.supersedes}`;
  if (old.iter > successor.iter || (old.iter === successor.iter && (old.number ?? 0) >= (successor.number ?? 0))) return `${oldId} is not earlier than ${newId}`;
  return undefined;
}

/** The point's place now, so that it can be kept as history and restored. */
export function placementOf(state: DeliberationState, point: Point): PointPlacement {
  const find = <T extends { pointId: string }>(items: T[]) => items.find((i) => i.pointId === point.id);
  const notEvaluated = state.notEvaluated.find((i) => i.ref === point.id);
  const agreed = find(state.buckets.agreed);
  const dismissed = find(state.buckets.dismissed);
  const unresolved = find(state.buckets.unresolved);
  return { status: point.status, iter: state.n, ...(agreed ? { agreed } : {}), ...(dismissed ? { dismissed } : {}), ...(unresolved ? { unresolved } : {}), ...(notEvaluated ? { notEvaluated } : {}) };
}

/** Replaces `oldId` by `newId` in place (on a draft); returns the effect. Check supersessionBlocker first. */
export function supersede(next: DeliberationState, newId: string, oldId: string, by: 'consultee' | 'orchestrator'): string {
  const old = findPoint(next, oldId) as Point;
  const successor = findPoint(next, newId) as Point;
  const was = placementOf(next, old);
  const challenge = challengeOnPoint(next, old.id);
  // Replaced after an answer that gave part of the claim up: the new version is the concession, in the consultee's words.
  const conceding = challenge?.status === 'defended' && (challenge.partial || challenge.unclear);
  if (challenge) {
    was.challenge = { id: challenge.id, status: challenge.status };
    challenge.status = 'resolved';
    challenge.resolution = conceding ? 'conceded-by-replacement' : 'superseded';
  }
  unplace(next, old.id);
  Object.assign(old, { status: 'superseded', supersededBy: successor.id, was });
  Object.assign(successor, { supersedes: old.id, supersededOn: by });
  const left = was.agreed ? ' (it leaves Agreed)' : was.dismissed ? ' (it leaves Dismissed)' : was.unresolved ? ' (it leaves Unresolved)' : '';
  // The orchestrator records a version in the judgment that judges it: only the consultee's asks for a verdict.
  const closes = challenge ? `; ${challenge.id} ${conceding ? 'conceded by the replacement' : 'closes with it'}` : '';
  return `${successor.id} replaces ${old.id}${left}${closes}${by === 'consultee' ? `: judge ${successor.id}` : ''}`;
}

/** Undoes a replacement: the earlier point takes back its place, the later one stands alone. */
export function restoreReplaced(next: DeliberationState, newId: string): string {
  const successor = findPoint(next, newId) as Point;
  const old = successor.supersedes ? findPoint(next, successor.supersedes) : undefined;
  if (!old?.was) return `${newId} replaces nothing`;
  restorePlacement(next, old);
  delete successor.supersedes;
  delete successor.supersededOn;
  delete old.supersededBy;
  return `${newId} stands on its own; ${old.id} takes back its place (${old.status})`;
}

/** Puts a point back where `was` says it stood (after a replacement or a fold is undone). */
export function restorePlacement(next: DeliberationState, point: Point): void {
  const was = point.was as PointPlacement;
  point.status = was.status;
  if (was.agreed) next.buckets.agreed.push(was.agreed);
  if (was.dismissed) next.buckets.dismissed.push(was.dismissed);
  if (was.unresolved) next.buckets.unresolved.push(was.unresolved);
  if (was.notEvaluated) next.notEvaluated.push(was.notEvaluated);
  const challenge = was.challenge ? next.challenges.find((c) => c.id === was.challenge!.id) : undefined;
  if (challenge && was.challenge) {
    challenge.status = was.challenge.status;
    delete challenge.resolution;
  }
  delete point.was;
}
