import type { DeliberationState } from '../../../schemas/argumentation.js';

/**
 * What convergence compares (seed: scope stable, that is no new points and the disputed list unchanged), as
 * this iteration's reply leaves it. A reply that says it has nothing further has nothing to answer about what
 * it settled itself: a new version of one of its points is no new scope, and a dispute it conceded, or closed
 * by replacing the point, is no change the next round must answer. One more round would be an empty turn.
 */
export function convergenceScope(state: DeliberationState): { newPoints: number; disputedBefore: string[] } {
  const { newPoints, disputedAtLastAdvance } = state.scope;
  if (!state.readings?.find((r) => r.iter === state.n)?.nothingFurther) return { newPoints, disputedBefore: disputedAtLastAdvance };
  const versions = state.points.filter((p) => p.iter === state.n && p.supersedes && !state.notEvaluated.some((i) => i.ref === p.id)).length;
  const settledByConsultee = (pointId: string) =>
    state.challenges.some((c) => c.pointId === pointId && (c.status === 'conceded' || c.resolution === 'superseded' || c.resolution === 'conceded-by-replacement'));
  return { newPoints: Math.max(0, newPoints - versions), disputedBefore: disputedAtLastAdvance.filter((id) => !settledByConsultee(id)) };
}
