import type { DeliberationState } from '../../../schemas/argumentation.js';
import { QUICK_ITERATION_CAP, quickTurnsSpent } from '../core/queries.js';
import { refuse, requireActive, type MoveResult } from './result.js';

/**
 * Whether the consultee may be asked now (or a reply recorded), checked before any model call is
 * spent: the deliberation is active, this iteration has no reply yet, and quick mode has a turn left.
 * reply_record's own first guards are these; the server asks this and restates none of it.
 */
export function consultPrecheck(state: DeliberationState): MoveResult | undefined {
  const guard = requireActive(state);
  if (guard) return guard;
  if (state.replyRecorded) {
    return refuse(state, 'reply-already-recorded', `Iteration ${state.n} already has its reply; judge it (delib_judge) with phase.advance.`);
  }
  if (quickTurnsSpent(state)) {
    return refuse(state, 'quick-turns-spent', `Quick mode has ${QUICK_ITERATION_CAP} consultee turns and both are spent (the last reply was unusable): judge with what you have; phase.advance ends the deliberation.`);
  }
  return undefined;
}
