import type { DeliberationState } from '../../schemas/argumentation.js';
import { findPoint } from '../argumentation/core/queries.js';
import { claimText } from '../argumentation/core/claims.js';

/** What the argumentation HTML report derives from a state file (the timeline: protocols/argumentation/timeline.ts). */

/** The text behind a reference: a point's claim as it now stands (P..) or a ledger fact (F..). */
export function refText(state: DeliberationState, ref: string): string {
  const point = findPoint(state, ref);
  return point ? claimText(point) : (state.ledger.find((f) => f.id === ref)?.text ?? '');
}

export function bucketOf(state: DeliberationState, pointId: string): string {
  if (state.buckets.agreed.some((i) => i.pointId === pointId)) return 'agreed';
  if (state.buckets.dismissed.some((i) => i.pointId === pointId)) return 'dismissed';
  if (state.buckets.unresolved.some((i) => i.pointId === pointId)) return 'unresolved';
  if (state.notEvaluated.some((i) => i.ref === pointId)) return 'not evaluated';
  return 'unplaced';
}
