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
  // The extension's prompt is the last CONSTRUCTIVE sends: answered without asking for it, no prompt is left to.
  if (state.extendedConstructive && state.replyRecorded && !state.stressTest.required) return "CONSTRUCTIVE's last prompt (iteration 3) was answered without it";
  return undefined;
}

/**
 * Why a warranted stress test cannot be asked for now, or undefined when it may (seed: inside CONSTRUCTIVE,
 * standard mode). It waits for every point in play to be Agreed, but not past CONSTRUCTIVE's last prompt
 * (the extension at n=3): that one asks for it whatever is still open, or the test would never run.
 */
export function stressTestBlocker(state: DeliberationState): string | undefined {
  const closed = stressTestClosed(state);
  if (closed) return closed;
  if (state.extendedConstructive) return undefined;
  const live = livePoints(state);
  if (!live.length) return 'no point is Agreed yet';
  const notAgreed = live.filter((p) => p.status !== 'agreed').map((p) => p.id);
  if (notAgreed.length) return `it runs once every point in play is Agreed (not yet: ${notAgreed.join(', ')}), or at the latest in CONSTRUCTIVE's extension (n=3)`;
  return undefined;
}

/** A test warranted (or asked for) that CONSTRUCTIVE still owes: not run, and a CONSTRUCTIVE prompt can still ask for it. */
export function stressTestOwed(state: DeliberationState): boolean {
  return !!(state.stressTest.warranted || state.stressTest.required) && stressTestClosed(state) === undefined;
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
