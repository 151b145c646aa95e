import type { AgreedItem, DeliberationState } from '../../../schemas/argumentation.js';
import { updateAgreed } from '../core/mutations.js';
import { citationKey } from '../core/references.js';
import { evidenceGate, isRefusal, type AgreedGate, type AgreedInput } from './gates.js';
import { accept, draft, refuse, type MoveContext, type MoveResult } from './result.js';

const sameEvidence = (a: AgreedItem, b: AgreedGate) =>
  a.claimType === b.claimType &&
  a.evidenceType === b.evidenceType &&
  citationKey(a.evidence) === citationKey(b.evidence) &&
  [...(a.premises ?? [])].sort().join() === [...(b.premises ?? [])].sort().join();

/**
 * AGREE again (a verdict or the Agreed bucket) on a point already Agreed. With new evidence or premises it
 * is an evidence update: the claim stays Agreed on what now supports it, through the same evidence gate.
 * That is how an Agreed item whose cited fact was superseded or refuted is mended before synthesis. The
 * same evidence again changes nothing and is refused `already-placed` (a new reason alone is no new evidence).
 */
export function updateEvidence(state: DeliberationState, pointId: string, input: AgreedInput, ctx: MoveContext): MoveResult {
  const current = state.buckets.agreed.find((i) => i.pointId === pointId);
  if (!current) throw new Error(`bug: ${pointId} is agreed but not in Agreed`);
  const gate = evidenceGate(state, pointId, input);
  if (isRefusal(gate)) return gate;
  if (sameEvidence(current, gate)) {
    return refuse(state, 'already-placed', `${pointId} is already Agreed on this evidence, so repeating it changes nothing: to update its evidence give new evidence or premises; to move it give another verdict or bucket (with revision).`);
  }
  const next = draft(state);
  updateAgreed(next, { pointId, ...gate, iter: next.n });
  return accept(next, [`${pointId} stays Agreed: evidence updated (${gate.evidenceType})`], ctx);
}
