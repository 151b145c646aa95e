import type { DeliberationState } from '../../../schemas/argumentation.js';

/** The bucket items an arbiter reviews. */
export function arbitrationRefs(state: DeliberationState): string[] {
  return [...state.buckets.agreed, ...state.buckets.dismissed, ...state.buckets.unresolved].map((i) => i.pointId);
}

/** Why arbitration may not be recorded now, as a rule and a sentence; no legal moves (legal-moves asks this too). */
export function arbitrationBlocker(state: DeliberationState): { rule: string; message: string } | undefined {
  if (state.mode !== 'standard') return { rule: `mode-${state.mode}`, message: `${state.mode} mode has no arbitration (standard mode only).` };
  if (state.status !== 'terminated') return { rule: 'arbitrate-after-termination', message: 'Arbitration reviews the final buckets: terminate the deliberation first.' };
  if (state.arbitration) {
    return { rule: 'already-arbitrated', message: `The buckets were arbitrated already (${state.arbitration.reviewer ?? 'a reviewer'}, ${state.arbitration.recordedAt}); one unattributed review per deliberation, and the report carries it.` };
  }
  if (!arbitrationRefs(state).length) return { rule: 'arbitration-coverage', message: 'No bucket items to arbitrate.' };
  return undefined;
}
