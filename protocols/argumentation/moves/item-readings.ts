import type { DeliberationState, Point } from '../../../schemas/argumentation.js';
import { unplace } from '../core/mutations.js';
import { findPoint } from '../core/queries.js';
import { placementOf, restorePlacement, restoreReplaced } from './supersede.js';

/**
 * Re-reading one item of the last reply: an item of an answer read as part of that answer (judged with
 * it, not as a claim of its own) or back as a point, and a point read as replacing an earlier one read
 * as standing on its own. Returns the effect, a refusal sentence, or undefined when `ref` names no such item.
 */
export type ItemReading = { effect: string } | { refused: string; rule: string } | undefined;

/** A point of this reply the orchestrator has not judged yet (nothing decided on it can be lost). */
function unjudged(point: Point | undefined, n: number): boolean {
  return !!point && point.iter === n && point.source === 'consultee' && ['pending-triage', 'not-evaluated', 'part-of-answer'].includes(point.status);
}

export function readItem(next: DeliberationState, ref: string, as: string): ItemReading {
  const point = findPoint(next, ref);
  if (!point || point.iter !== next.n || point.source !== 'consultee') return undefined;
  if (as === 'defense' && point.partOf && point.status !== 'part-of-answer') {
    if (!unjudged(point, next.n)) return { rule: 'point-already-judged', refused: `${ref} was already judged; it can no longer be read as part of ${point.partOf}'s answer.` };
    if (point.status === 'pending-triage') next.scope.newPoints = Math.max(0, next.scope.newPoints - 1);
    point.was = placementOf(next, point);
    unplace(next, point.id);
    point.status = 'part-of-answer';
    return { effect: `${ref} read as part of the answer to ${point.partOf}: judged with it` };
  }
  if (as === 'point' && point.status === 'part-of-answer' && point.was) {
    restorePlacement(next, point);
    if ((point.status as Point['status']) === 'pending-triage') next.scope.newPoints += 1;
    return { effect: `${ref} read as a point of its own again (${point.status})` };
  }
  if (as === 'point' && point.supersedes && point.supersededOn === 'consultee') {
    return { effect: restoreReplaced(next, point.id) };
  }
  return undefined;
}
