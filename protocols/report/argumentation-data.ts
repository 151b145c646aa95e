import type { DeliberationState } from '../../schemas/argumentation.js';

/** What the argumentation HTML report derives from a state file (the timeline: protocols/argumentation/timeline.ts). */

/** The text behind a reference: a point (P..) or a ledger fact (F..). */
export function refText(state: DeliberationState, ref: string): string {
  return state.points.find((p) => p.id === ref)?.text ?? state.ledger.find((f) => f.id === ref)?.text ?? '';
}

export function bucketOf(state: DeliberationState, pointId: string): string {
  if (state.buckets.agreed.some((i) => i.pointId === pointId)) return 'agreed';
  if (state.buckets.dismissed.some((i) => i.pointId === pointId)) return 'dismissed';
  if (state.buckets.unresolved.some((i) => i.pointId === pointId)) return 'unresolved';
  if (state.notEvaluated.some((i) => i.ref === pointId)) return 'not evaluated';
  return 'unplaced';
}
