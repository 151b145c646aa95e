import { z } from 'zod';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { placeUnresolved, terminate } from '../core/mutations.js';
import { nextLegalMoves } from '../rules/legal-moves.js';
import { disputedList, iterationCap, lastIteration, phaseFor, pointsWithStatus, quickTurnsSpent, unsettledChallenges } from '../core/queries.js';
import { convergenceScope } from '../rules/convergence.js';
import { stressTestBlocker, stressTestMayRun, stressTestOwed } from '../rules/stress-test.js';
import { accept, draft, refuse, requireActive, type MoveContext, type MoveResult } from './result.js';

export const IterationAdvanceInput = z.object({
  trivial: z.boolean().optional().describe('factual, settled: exit'),
});
export type IterationAdvanceInput = z.infer<typeof IterationAdvanceInput>;

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export const CONVERGED = 'converged';

/** Reasons the deliberation cannot move on yet; each names the move that clears it. */
function blockers(state: DeliberationState): string[] {
  const out: string[] = [];
  const untriaged = pointsWithStatus(state, 'pending-triage').map((p) => p.id);
  const unevaluated = pointsWithStatus(state, 'pending-evaluation').map((p) => p.id);
  const unjudged = state.challenges.filter((c) => c.status === 'defended').map((c) => c.id);
  if (untriaged.length) out.push(`triage or classify ${untriaged.join(', ')} (points)`);
  if (unevaluated.length) out.push(`classify ${unevaluated.join(', ')} (points verdict)`);
  if (unjudged.length) out.push(`judge the defenses on ${unjudged.join(', ')} (challenges)`);
  return out;
}


export function iterationAdvance(state: DeliberationState, input: IterationAdvanceInput, ctx: MoveContext): MoveResult {
  const guard = requireActive(state);
  if (guard) return guard;
  // Quick mode whose last turn was an unusable reply: nothing more can come; the orchestrator judges what it has.
  if (!state.replyRecorded && !quickTurnsSpent(state)) {
    return refuse(state, 'valid-reply-required', `n increments only after a valid reply: record the consultee's reply for iteration ${state.n} first.`);
  }
  const pending = blockers(state);
  if (pending.length) return refuse(state, 'anti-authority', `Consultee output is never accepted unevaluated: ${pending.join('; ')}.`);

  const next = draft(state);
  const open = unsettledChallenges(next);
  const contested = next.mode === 'quick' ? pointsWithStatus(next, 'contested') : [];
  if (input.trivial) {
    if (next.n > 2 || open.length || contested.length) {
      return refuse(state, 'early-exit-trivial', 'Early exit (trivial) is only for a factual question settled by n=2 with nothing disputed.');
    }
    terminate(next, 'early-exit-trivial', `factual question settled at iteration ${next.n}`);
    return accept(next, ['early exit (trivial): synthesize'], ctx);
  }
  // A test CONSTRUCTIVE still owes holds the deliberation: convergence would end CONSTRUCTIVE before it ran.
  const stressOwed = stressTestOwed(next);
  const disputed = disputedList(next);
  const clarifying = pointsWithStatus(next, 'clarification-requested');
  const scope = convergenceScope(next);
  const converged = !open.length && !contested.length && !clarifying.length && !stressOwed && scope.newPoints === 0 && sameList(disputed, scope.disputedBefore);
  // Quick mode has no further rounds to argue in: nothing contested means nothing left to settle.
  const quickSettled = next.mode === 'quick' && !contested.length && !clarifying.length;
  // Said of the state before it ends, so the reason is the test's own, not the ending.
  const notRun = stressTestNotRun(next);
  if (converged || quickSettled) {
    terminate(next, 'convergence', converged ? 'no open challenges, no new points, disputed list unchanged' : 'quick: nothing contested');
    return accept(next, [...notRun, `${CONVERGED}: synthesize (delib_synthesize, or synthesis in this judgment)`], ctx);
  }
  if (lastIteration(next)) {
    for (const c of open) {
      c.status = 'resolved';
      c.resolution = 'open-at-end';
      placeUnresolved(next, { pointId: c.pointId, status: 'open-at-end', crux: c.objection, iter: next.n });
    }
    const capped = next.n >= iterationCap(next) && next.replyRecorded;
    terminate(next, 'iteration-cap', capped ? `iteration cap ${next.n} reached` : `quick: both consultee turns spent at iteration ${next.n}`);
    // "synthesize" only when the engine offers it: quick contested points are placed first, and `next` says so.
    const then = nextLegalMoves(next).some((m) => m.move === 'delib_synthesize') ? '; synthesize' : '';
    const unresolved = open.length ? `: ${open.length} open dispute(s) -> Unresolved` : '';
    return accept(next, [...notRun, `${capped ? 'iteration cap reached' : 'quick: both consultee turns spent'}${unresolved}${then}`], ctx);
  }
  const effects: string[] = [];
  const unaddressed = open.some((c) => c.status === 'open' || c.status === 'dropped');
  // Minimal mode keeps the phases (the seed): its coverage check extends CONSTRUCTIVE too; only the stress test is standard's.
  if (next.mode !== 'quick' && next.n === 2 && !next.extendedConstructive && (unaddressed || stressOwed)) {
    next.extendedConstructive = true;
    next.n = 3;
    next.phase = 'CONSTRUCTIVE';
    const why = [unaddressed ? 'a dispute left unaddressed' : '', stressOwed ? 'required stress test not run' : ''].filter(Boolean).join(', and a ');
    effects.push(`extended CONSTRUCTIVE at n=3 (${why})`);
  } else {
    next.n += 1;
    next.phase = next.mode === 'quick' ? null : phaseFor(next.n);
    // Who sends the next prompt (the server at once, or the orchestrator) is `next`'s to say.
    effects.push(`iteration ${next.n}${next.phase ? ` (${next.phase})` : ''}`);
  }
  next.replyRecorded = false;
  // The stress test is decided once the next iteration is known: asked for only by a prompt inside CONSTRUCTIVE.
  const st = next.stressTest;
  if (st.required && !st.objection && !st.lapsed && next.phase !== 'CONSTRUCTIVE') {
    st.lapsed = true;
    effects.push('the required stress test was not recorded before CONSTRUCTIVE ended: it lapses (the report says so)');
  } else if (stressTestMayRun(next) && !st.required) {
    st.required = true;
    effects.unshift('stress test required: the next prompt asks for the strongest objection');
  } else effects.unshift(...stressTestNotRun(next));
  next.scope = { newPoints: 0, disputedAtLastAdvance: disputed };
  return accept(next, effects, ctx);
}

/** Why a warranted stress test was not asked for at this advance (nothing when none was warranted, or it is asked, ran or lapsed). */
function stressTestNotRun(state: DeliberationState): string[] {
  const st = state.stressTest;
  return st.warranted && !st.required && !st.objection ? [`stress test warranted but not run: ${stressTestBlocker(state)}`] : [];
}
