import { z } from 'zod';
import { DismissTag, type Classification, type DeliberationState } from '../../../schemas/argumentation.js';
import { AgreedFields, blockedRule, evidenceGate, isRefusal, substantive } from './gates.js';
import { placeAgreed, placeDismissed, placeUnresolved, recordPosition } from '../core/mutations.js';
import { applyRevision, checkStability, Revision } from './point-moves.js';
import { challengeOnPoint, findPoint, lastPosition } from '../core/queries.js';
import { accept, draft, refuse, type MoveContext, type MoveResult } from './result.js';

export const BucketAssignInput = z.object({
  pointId: z.string(),
  bucket: z.enum(['agreed', 'dismissed', 'unresolved']),
  tag: DismissTag.optional(),
  status: z.enum(['blocked', 'tradeoff', 'definitional']).optional(),
  crux: z.string().optional().describe('unresolved: what it turns on'),
  measurement: z.string().optional(),
  threshold: z.string().optional(),
  verdictChange: z.string().optional(),
  revision: Revision.optional(),
  ...AgreedFields,
});
export type BucketAssignInput = z.infer<typeof BucketAssignInput>;

const ASSIGNABLE_TAGS: DismissTag[] = ['FALSE', 'RISKY', 'VIOLATES-CONSTRAINT', 'REJECTED'];

export function bucketAssign(state: DeliberationState, input: BucketAssignInput, ctx: MoveContext): MoveResult {
  const point = findPoint(state, input.pointId);
  if (!point) return refuse(state, 'unknown-point', `No point ${input.pointId}.`);
  const prev = lastPosition(state, point.id);
  if (!prev) return refuse(state, 'anti-authority', `${point.id} has not been evaluated: give it a verdict before it can enter a bucket.`);
  const challenge = challengeOnPoint(state, point.id);
  if (challenge) {
    return refuse(state, 'defense-obligation', `${point.id} is under ${challenge.id} (${challenge.status}): it leaves through the consultee's reply or a verdict on the challenge.`);
  }
  if (point.status === input.bucket) return refuse(state, 'already-placed', `${point.id} is already ${input.bucket}.`);
  const implied: Classification | undefined = input.bucket === 'agreed' ? 'AGREE' : input.bucket === 'dismissed' && prev.classification === 'AGREE' ? 'REJECT' : undefined;
  if (implied) {
    const unstable = checkStability(state, point.id, implied, input.revision);
    if (unstable) return unstable;
  }

  const next = draft(state);
  const effects = implied ? applyRevision(next, point.id, implied, input.revision) : [];
  if (implied && implied !== prev.classification) recordPosition(next, { pointId: point.id, classification: implied, revision: input.revision });

  if (input.bucket === 'agreed') {
    const gate = evidenceGate(state, point.id, input);
    if (isRefusal(gate)) return gate;
    placeAgreed(next, { pointId: point.id, ...gate, iter: next.n });
    return accept(next, [...effects, `${point.id} -> Agreed (${gate.evidenceType})`], ctx);
  }
  if (input.bucket === 'dismissed') {
    if (!input.tag || !ASSIGNABLE_TAGS.includes(input.tag)) {
      return refuse(state, 'procedural-tag', `Dismiss ${point.id} with one of ${ASSIGNABLE_TAGS.join(', ')}; CONCEDED and UNDEFENDED come only from replies, OUT-OF-SCOPE from triage.`);
    }
    const reason = substantive(state, input.reason, `Dismissing ${point.id}`);
    if (typeof reason !== 'string') return reason;
    placeDismissed(next, { pointId: point.id, tag: input.tag, reason, iter: next.n });
    return accept(next, [...effects, `${point.id} -> Dismissed ${input.tag}`], ctx);
  }
  if (!input.status) return refuse(state, 'unresolved-kind', 'Say which kind of Unresolved: blocked, tradeoff or definitional.');
  if (input.status === 'blocked') {
    const bad = blockedRule(state, input);
    if (bad) return bad;
  }
  const crux = substantive(state, input.crux, `Unresolved ${point.id}`);
  if (typeof crux !== 'string') return crux;
  placeUnresolved(next, { pointId: point.id, status: input.status, crux, measurement: input.measurement, threshold: input.threshold, verdictChange: input.verdictChange, iter: next.n });
  return accept(next, [...effects, `${point.id} -> Unresolved ${input.status}`], ctx);
}
