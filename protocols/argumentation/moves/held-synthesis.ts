import type { DeliberationState } from '../../../schemas/argumentation.js';
import { CONVERGED, iterationAdvance } from './iteration.js';
import { accept, type MoveContext, type MoveResult } from './result.js';
import { synthesize } from './synthesize.js';

/**
 * What a reply must leave for a held synthesis to end the deliberation: nothing further, no new point,
 * nothing to read. Its answers to challenges may stand (a concession settles itself); a defense still to
 * judge holds the advance back, as it would the orchestrator's own.
 */
export interface ReplyLeft {
  nothingFurther: boolean;
  newPoints: number;
  toRead: number;
}

/**
 * After a reply is recorded (`recorded` has it): a synthesis the orchestrator held with its last judgment
 * (judgment.ts) ends the deliberation when the reply says nothing further and leaves nothing to judge, by
 * the same advance (convergence) and synthesis the orchestrator's next judgment would have made: all or
 * nothing, so a refusal of either leaves the reply recorded and the deliberation open, saying why. Any
 * other reply drops the held synthesis: the recommendation was written before it.
 */
export function applyHeldSynthesis(recorded: DeliberationState, effects: string[], left: ReplyLeft, ctx: MoveContext): MoveResult {
  const held = recorded.heldSynthesis;
  if (!held) return accept(recorded, effects, ctx);
  delete recorded.heldSynthesis;
  const settled = left.nothingFurther && !left.newPoints && !left.toRead;
  if (!settled) return accept(recorded, [...effects, 'the held synthesis was dropped: the reply leaves more to judge (give a synthesis again when the deliberation can end)'], ctx);
  const dropped = (why: string) => accept(recorded, [...effects, `the held synthesis was not applied: ${why}`], ctx);
  const ended = iterationAdvance(recorded, {}, ctx);
  if (!ended.ok) return dropped(ended.refusal.message);
  // Quick mode's last turn or the cap would end it with something unplaced: that placing is the orchestrator's.
  if (ended.state.termination?.reason !== 'convergence') return dropped('the reply leaves something for you to judge or place; judge it, then phase.advance with synthesis');
  const synthesized = synthesize(ended.state, held, ctx);
  if (!synthesized.ok) return dropped(`${synthesized.refusal.message} (the deliberation stays open: phase.advance with synthesis ends it)`);
  const converged = ended.effects.map((e) => (e.startsWith(CONVERGED) ? CONVERGED : e));
  return accept(synthesized.state, [...effects, ...converged, 'the held synthesis was applied', ...synthesized.effects], ctx);
}
