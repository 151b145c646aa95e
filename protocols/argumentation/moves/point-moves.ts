import { z } from 'zod';
import { Classification, ClaimType, type DeliberationState, type Point } from '../../../schemas/argumentation.js';
import { AgreedFields, articulateFlaw, evidenceGate, isRefusal, substantive } from './gates.js';
import { appendFact, placeAgreed, placeDismissed, placeNotEvaluated, placeUnresolved, recordPosition, reopenPoint, surfaceQuestion } from '../core/mutations.js';
import { challengeOnPoint, findPoint, lastPosition, nextChallengeId } from '../core/queries.js';
import { EVALUABLE, pointClosedWhy } from '../rules/legal-actions.js';
import { normaliseId } from '../core/references.js';
import { updateEvidence } from './evidence-update.js';
import { accept, draft, refuse, requireActive, type MoveContext, type MoveResult } from './result.js';

export const PointTriageInput = z.object({
  pointId: z.string(),
  triage: z.enum(['in-scope', 'out-of-scope', 'anchor-shift', 'new-argument']),
  reason: z.string(),
  decisive: z.boolean().optional().describe('evidence that settles the exact claim'),
});
export type PointTriageInput = z.infer<typeof PointTriageInput>;

export const Revision = z.object({ from: Classification, because: z.string().min(1) }).describe('acknowledged position change');

export const PointEvaluateInput = z.object({
  pointId: z.string(),
  classification: Classification,
  flaw: z.string().optional().describe('one sentence; ILL-FORMED: what to clarify'),
  terminalWhy: z.string().optional().describe('REJECT: why the flaw is terminal'),
  revision: Revision.optional(),
  contradicts: z.string().optional().describe("consultee's earlier point it contradicts"),
  ...AgreedFields,
});
export type PointEvaluateInput = z.infer<typeof PointEvaluateInput>;

function pointOr(state: DeliberationState, pointId: string): Point | MoveResult {
  return findPoint(state, pointId) ?? refuse(state, 'unknown-point', `No point ${normaliseId(pointId)}.`);
}

export function pointTriage(state: DeliberationState, input: PointTriageInput, ctx: MoveContext): MoveResult {
  const guard = requireActive(state);
  if (guard) return guard;
  const point = pointOr(state, input.pointId);
  if (isRefusal(point)) return point;
  if (point.status !== 'pending-triage') return refuse(state, 'already-triaged', `${point.id} is ${point.status}, not waiting for triage.`);
  // The engine admits a late point that cites an earlier one; only the orchestrator can tell a new argument dressed as one.
  if (input.triage === 'new-argument' && (state.phase === null || state.phase === 'CONSTRUCTIVE')) {
    return refuse(state, 'phase-admits-new-arguments', `${state.phase ?? 'Quick mode'} admits new arguments: triage ${point.id} in-scope, out-of-scope or anchor-shift.`);
  }
  const reason = substantive(state, input.reason, `Triage of ${point.id}`);
  if (typeof reason !== 'string') return reason;
  const next = draft(state);
  const p = findPoint(next, point.id) as Point;
  p.triage = input.triage;
  if (input.triage === 'out-of-scope') {
    placeDismissed(next, { pointId: p.id, tag: 'OUT-OF-SCOPE', reason, iter: next.n });
    return accept(next, [`${p.id} -> Dismissed OUT-OF-SCOPE`], ctx);
  }
  if (input.triage === 'new-argument') {
    // As the engine routes an uncited late point: DEVELOPMENT admits no new argument, CRYSTALLIZATION none at all.
    const why = state.phase === 'DEVELOPMENT' ? 'phase-violation' : 'phase-closed';
    placeNotEvaluated(next, { ref: p.id, reason: why, note: reason, iter: next.n });
    next.scope.newPoints = Math.max(0, next.scope.newPoints - 1);
    return accept(next, [`${p.id} -> Not Evaluated (${why}: a new argument in ${state.phase}, by your triage)`], ctx);
  }
  if (input.triage === 'anchor-shift') {
    placeUnresolved(next, { pointId: p.id, status: 'pending-anchor-shift', crux: reason, iter: next.n });
    const q = surfaceQuestion(next, `${p.id} would reframe the question (${reason}). Keep the original question, or consent to reframe?`, p.id);
    return accept(next, [`${p.id} -> Unresolved pending-anchor-shift; ${q} surfaced for the user (the question stays as asked)`], ctx);
  }
  if (p.needsDecisive && !input.decisive) {
    placeNotEvaluated(next, { ref: p.id, reason: 'non-decisive-evidence', note: reason, iter: next.n });
    return accept(next, [`${p.id} -> Not Evaluated (evidence in CRYSTALLIZATION that is not decisive)`], ctx);
  }
  p.status = 'pending-evaluation';
  return accept(next, [`${p.id} in scope: evaluate it`], ctx);
}

/** Position stability: a changed classification needs "from X to Y because". Returns a refusal or undefined. */
export function checkStability(state: DeliberationState, pointId: string, to: Classification, revision: z.infer<typeof Revision> | undefined): MoveResult | undefined {
  const prev = lastPosition(state, pointId);
  if (!prev || prev.classification === to || prev.classification === 'ILL-FORMED' || to === 'ILL-FORMED') return undefined;
  if (!revision) {
    return refuse(state, 'position-stability', `Iteration ${prev.iter} classified ${pointId} as ${prev.classification}; to change it say revision {from: "${prev.classification}", because: ...}.`);
  }
  if (revision.from !== prev.classification) {
    return refuse(state, 'position-stability', `The revision says from ${revision.from}, but the last position on ${pointId} is ${prev.classification}.`);
  }
  if (!substantiveText(revision.because)) return refuse(state, 'revision-needs-justification', 'Say why the position changed (because ...).');
  return undefined;
}

const substantiveText = (t: string) => t.trim().split(/\s+/).length >= 3;

/** Records the revision fact when the classification changes; returns effects. */
export function applyRevision(next: DeliberationState, pointId: string, to: Classification, revision: z.infer<typeof Revision> | undefined): string[] {
  const prev = lastPosition(next, pointId);
  if (!revision || !prev || prev.classification === to) return [];
  const fact = appendFact(next, { text: `${pointId}: revising from ${revision.from} to ${to}`, tag: 'revision', justification: revision.because });
  return [`${fact.id} (revision) ${pointId} from ${revision.from} to ${to}`];
}


function objectionGrounds(input: PointEvaluateInput): { evidence?: string; terminalWhy?: string } {
  return { ...(input.evidence?.trim() ? { evidence: input.evidence.trim() } : {}), ...(input.terminalWhy?.trim() ? { terminalWhy: input.terminalWhy.trim() } : {}) };
}

export function pointEvaluate(state: DeliberationState, input: PointEvaluateInput, ctx: MoveContext): MoveResult {
  const guard = requireActive(state);
  if (guard) return guard;
  const point = pointOr(state, input.pointId);
  if (isRefusal(point)) return point;
  if (point.status === 'pending-triage') return refuse(state, 'triage-first', `Triage ${point.id} before evaluating it.`);
  const closed = pointClosedWhy(state, point);
  if (closed) return refuse(state, challengeOnPoint(state, point.id) ? 'challenge-pending' : 'not-evaluable', `${closed}.`);
  if (!EVALUABLE.includes(point.status)) return refuse(state, 'not-evaluable', `${point.id} is ${point.status} and cannot be evaluated.`);
  if (point.status === 'agreed' && input.classification === 'AGREE') return updateEvidence(state, point.id, input, ctx);
  const prev = lastPosition(state, point.id);
  const placed = ['agreed', 'dismissed', 'unresolved'].includes(point.status);
  if (placed && prev?.classification === input.classification) return refuse(state, 'already-placed', `${point.id} is already ${point.status} as ${input.classification}.`);
  const unstable = checkStability(state, point.id, input.classification, input.revision);
  if (unstable) return unstable;

  const c = input.classification;
  let agreed: ReturnType<typeof evidenceGate> | undefined;
  if (c === 'SKEPTICAL' || c === 'REJECT' || c === 'ILL-FORMED') {
    const bad = articulateFlaw(state, c, input.flaw);
    if (bad) return bad;
  }
  if (c === 'REJECT') {
    const missing = [!input.claimType && 'claimType', !input.evidence?.trim() && 'evidence', !input.terminalWhy?.trim() && 'terminalWhy'].filter(Boolean);
    if (missing.length) return refuse(state, 'articulation', `REJECT needs a concrete flaw, a claimType, evidence and why it is terminal (missing: ${missing.join(', ')}).`);
    ClaimType.parse(input.claimType);
  }
  if (c === 'AGREE') {
    agreed = evidenceGate(state, point.id, input);
    if (isRefusal(agreed)) return agreed;
  }

  const earlier = input.contradicts ? findPoint(state, input.contradicts) : undefined;
  if (input.contradicts && (!earlier || (c !== 'SKEPTICAL' && c !== 'REJECT'))) {
    return refuse(state, 'anti-sycophancy', `contradicts needs an existing earlier point and a SKEPTICAL or REJECT classification.`);
  }

  const next = draft(state);
  const effects = applyRevision(next, point.id, c, input.revision);
  if (placed || point.status === 'contested') reopenPoint(next, point.id);
  // What an objection rests on goes to the consultee with it: a flaw alone invites "you showed no run".
  const grounds = c === 'SKEPTICAL' || c === 'REJECT' ? objectionGrounds(input) : {};
  recordPosition(next, { pointId: point.id, classification: c, flaw: input.flaw, ...grounds, revision: input.revision });
  const p = findPoint(next, point.id) as Point;
  if (c === 'AGREE' && agreed && !isRefusal(agreed)) {
    placeAgreed(next, { pointId: p.id, ...agreed, iter: next.n });
    effects.push(`${p.id} -> Agreed (${agreed.evidenceType})`);
  } else if (c === 'ILL-FORMED') {
    p.status = 'clarification-requested';
    p.clarification = input.flaw;
    effects.push(`${p.id} ILL-FORMED: clarification requested in the next prompt`);
  } else if (next.mode === 'quick') {
    p.status = 'contested';
    effects.push(`${p.id} ${c}: place it with a bucket after the consultee answers`);
  } else {
    const id = nextChallengeId(next);
    // Anti-sycophancy guard: an unacknowledged self-contradiction is challenged with the citation.
    const objection = earlier ? `Iteration ${earlier.iter} you claimed (${earlier.id}) "${earlier.text.slice(0, 160)}", now ${p.id} claims the opposite: reconcile. ${input.flaw ?? ''}`.trim() : (input.flaw ?? '');
    next.challenges.push({ id, pointId: p.id, type: c as 'SKEPTICAL' | 'REJECT', objection, ...grounds, raisedIter: next.n, openedIter: next.n, status: 'open', reminderSent: false, clarificationRequested: false });
    p.status = 'contested';
    effects.push(`${id} opened (${c}) on ${p.id}${c === 'REJECT' ? ': single defense round' : ''}`);
  }
  return accept(next, effects, ctx);
}
