import type { Challenge, DeliberationState, Point } from '../../../schemas/argumentation.js';
import { challengeOnPoint, DEADLOCK_ROUNDS, findChallenge, findPoint, iterationCap, lastPosition } from '../core/queries.js';

/** Point statuses a verdict can (re)classify. */
export const EVALUABLE: Point['status'][] = ['pending-evaluation', 'clarification-requested', 'contested', 'agreed', 'dismissed', 'unresolved'];

/**
 * What a delib_judge item may do now for one point: "triage", "verdict", "bucket". Refusals list
 * these, so every action a refusal suggests is one the engine accepts for some arguments.
 */
export function pointActions(state: DeliberationState, pointId: string): string[] {
  const point = findPoint(state, pointId);
  if (!point) return [];
  const active = state.status === 'active';
  if (point.status === 'pending-triage') return active ? ['triage', 'verdict'] : [];
  if (challengeOnPoint(state, point.id)) return [];
  const out: string[] = [];
  const outOfScope = point.status === 'dismissed' && point.triage === 'out-of-scope';
  if (active && EVALUABLE.includes(point.status) && !outOfScope) out.push('verdict');
  if (lastPosition(state, point.id)) out.push('bucket');
  return out;
}

/** The verdicts a delib_judge challenge item may give now. */
export function challengeActions(state: DeliberationState, challengeId: string): string[] {
  const c = findChallenge(state, challengeId);
  if (!c || state.status !== 'active' || state.mode === 'quick') return [];
  const out: string[] = [];
  if (c.status === 'defended') out.push('accepted', 'rejected', ...(c.type === 'SKEPTICAL' ? ['rebutted'] : []));
  if (['open', 'dropped', 'defended'].includes(c.status) && deadlockAllowed(state, c)) out.push('deadlock');
  return out;
}

export function deadlockAllowed(state: DeliberationState, c: Challenge): boolean {
  return state.n - c.openedIter >= DEADLOCK_ROUNDS || state.n >= iterationCap(state);
}

/** Legal actions for whatever a ref names: a point, a challenge, or nothing. */
export function actionsFor(state: DeliberationState, ref: string | undefined): string[] {
  if (!ref) return [];
  if (/^P\d/.test(ref)) return pointActions(state, ref);
  if (/^C\d/.test(ref)) return challengeActions(state, ref);
  return [];
}
