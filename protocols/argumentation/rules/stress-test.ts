import type { DeliberationState } from '../../../schemas/argumentation.js';
import { isCurrent } from '../core/claims.js';

/** Points still in play: not set aside as out of scope or not evaluated. */
// Replaced versions and items folded into an answer are not claims: only current ones wait to be Agreed.
function livePoints(state: DeliberationState) {
  return state.points.filter((p) => isCurrent(p) && p.status !== 'not-evaluated' && p.triage !== 'out-of-scope' && p.status !== 'dismissed');
}

/** Why a stress test can never run in this deliberation any more, or undefined while it still may. */
export function stressTestClosed(state: DeliberationState): string | undefined {
  if (state.mode !== 'standard') return `${state.mode} mode has no stress test`;
  if (state.stressTest.objection) return 'it already ran';
  if (state.phase !== 'CONSTRUCTIVE') return 'CONSTRUCTIVE is over (it runs only there)';
  if (state.status !== 'active') return 'the deliberation ended inside CONSTRUCTIVE';
  return undefined;
}

/** Why a warranted stress test cannot run now, or undefined when it may (seed: all Agreed, inside CONSTRUCTIVE, standard mode). */
export function stressTestBlocker(state: DeliberationState): string | undefined {
  const closed = stressTestClosed(state);
  if (closed) return closed;
  const live = livePoints(state);
  if (!live.length) return 'no point is Agreed yet';
  const notAgreed = live.filter((p) => p.status !== 'agreed').map((p) => p.id);
  if (notAgreed.length) return `it runs once every point in play is Agreed (not yet: ${notAgreed.join(', ')})`;
  return undefined;
}

export function stressTestMayRun(state: DeliberationState): boolean {
  return !!state.stressTest.warranted && stressTestBlocker(state) === undefined;
}

/** What the status shows: whether one is warranted, may run, is required (asked for), ran. */
export function stressTestView(state: DeliberationState): Record<string, unknown> | undefined {
  const st = state.stressTest;
  if (state.mode !== 'standard') return undefined;
  if (st.objection) return { ran: true, severity: st.severity };
  if (st.lapsed) return { lapsed: 'required, but CONSTRUCTIVE ended before it was recorded' };
  if (st.required) return { required: true, asked: 'the next prompt asks for the strongest objection' };
  if (st.warranted) return { warranted: true, blocker: stressTestBlocker(state) ?? 'none: it is required at the next advance' };
  return undefined;
}
