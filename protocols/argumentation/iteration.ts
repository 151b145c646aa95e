import { z } from 'zod';
import type { DeliberationState } from '../../schemas/argumentation.js';
import { placeUnresolved, terminate } from './mutations.js';
import { disputedList, iterationCap, phaseFor, pointsWithStatus, unsettledChallenges } from './queries.js';
import { accept, draft, refuse, requireActive, type MoveContext, type MoveResult } from './result.js';

export const IterationAdvanceInput = z.object({
  stressTestWarranted: z.boolean().optional().describe('stakes warrant a stress test'),
  trivial: z.boolean().optional().describe('factual, settled: exit'),
});
export type IterationAdvanceInput = z.infer<typeof IterationAdvanceInput>;

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Reasons the deliberation cannot move on yet; each names the move that clears it. */
function blockers(state: DeliberationState): string[] {
  const out: string[] = [];
  const untriaged = pointsWithStatus(state, 'pending-triage').map((p) => p.id);
  const unevaluated = pointsWithStatus(state, 'pending-evaluation').map((p) => p.id);
  const unjudged = state.challenges.filter((c) => c.status === 'defended').map((c) => c.id);
  if (untriaged.length) out.push(`triage ${untriaged.join(', ')} (point_triage)`);
  if (unevaluated.length) out.push(`evaluate ${unevaluated.join(', ')} (point_evaluate)`);
  if (unjudged.length) out.push(`judge the defenses on ${unjudged.join(', ')} (challenge_resolve)`);
  return out;
}

function allAgreed(state: DeliberationState): boolean {
  const live = state.points.filter((p) => p.status !== 'not-evaluated' && p.triage !== 'out-of-scope');
  return live.length > 0 && live.every((p) => p.status === 'agreed');
}

export function iterationAdvance(state: DeliberationState, input: IterationAdvanceInput, ctx: MoveContext): MoveResult {
  const guard = requireActive(state);
  if (guard) return guard;
  if (!state.replyRecorded) {
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
    return accept(next, ['early exit (trivial): delib_synthesize'], ctx);
  }
  if (input.stressTestWarranted && next.mode === 'standard' && next.phase === 'CONSTRUCTIVE' && allAgreed(next) && !next.stressTest.objection) {
    next.stressTest.required = true;
  }
  const stressPending = next.stressTest.required && !next.stressTest.objection;
  const disputed = disputedList(next);
  const clarifying = pointsWithStatus(next, 'clarification-requested');
  const converged = !open.length && !contested.length && !clarifying.length && !stressPending && next.scope.newPoints === 0 && sameList(disputed, next.scope.disputedAtLastAdvance);
  if (converged) {
    terminate(next, 'convergence', 'no open challenges, no new points, disputed list unchanged');
    return accept(next, ['converged: delib_synthesize'], ctx);
  }
  if (next.n >= iterationCap(next)) {
    for (const c of open) {
      c.status = 'resolved';
      c.resolution = 'open-at-end';
      placeUnresolved(next, { pointId: c.pointId, status: 'open-at-end', crux: c.objection, iter: next.n });
    }
    terminate(next, 'iteration-cap', `iteration cap ${next.n} reached`);
    return accept(next, [`iteration cap reached: ${open.length} open dispute(s) -> Unresolved; delib_synthesize`], ctx);
  }
  const effects: string[] = [];
  const unaddressed = open.some((c) => c.status === 'open' || c.status === 'dropped');
  if (next.mode === 'standard' && next.n === 2 && !next.extendedConstructive && (unaddressed || stressPending)) {
    next.extendedConstructive = true;
    next.n = 3;
    next.phase = 'CONSTRUCTIVE';
    effects.push(`extended CONSTRUCTIVE at n=3 (${unaddressed ? 'coverage check found an unaddressed dispute' : 'required stress test not run'})`);
  } else {
    next.n += 1;
    next.phase = next.mode === 'quick' ? null : phaseFor(next.n);
    effects.push(`iteration ${next.n}${next.phase ? ` (${next.phase})` : ''}: send the next prompt`);
  }
  next.replyRecorded = false;
  next.scope = { newPoints: 0, disputedAtLastAdvance: disputed };
  return accept(next, effects, ctx);
}
