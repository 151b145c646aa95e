import { Synthesis, type DeliberationState } from '../../../schemas/argumentation.js';
import { placeNotEvaluated, placeUnresolved } from '../core/mutations.js';
import { activeFacts, isSubstantive, pointsWithStatus, unsettledChallenges } from '../core/queries.js';
import { staleAgreed } from '../core/references.js';
import { bucketClaims, isInconclusive } from '../report/claim-record.js';
import { notEvaluatedItems } from '../report/claim-entries.js';
import { accept, draft, refuse, type MoveContext, type MoveResult } from './result.js';

/** The orchestrator's answer to the user's question: the report leads with it. */
export const SynthesizeInput = Synthesis;
export type SynthesizeInput = Synthesis;

/** How many places each point occupies (buckets plus Not Evaluated plus in-flight statuses). */
export function placeCounts(state: DeliberationState): Map<string, number> {
  const counts = new Map(state.points.map((p) => [p.id, 0]));
  const bump = (id: string) => counts.set(id, (counts.get(id) ?? 0) + 1);
  state.buckets.agreed.forEach((i) => bump(i.pointId));
  state.buckets.dismissed.forEach((i) => bump(i.pointId));
  state.buckets.unresolved.forEach((i) => bump(i.pointId));
  state.notEvaluated.filter((i) => i.ref.startsWith('P')).forEach((i) => bump(i.ref));
  // A replaced version and an item folded into its answer are history, kept once where they stand.
  pointsWithStatus(state, 'pending-triage', 'pending-evaluation', 'clarification-requested', 'contested', 'superseded', 'part-of-answer').forEach((p) => bump(p.id));
  return counts;
}

/**
 * The evidence gate again, on the final ledger: an Agreed claim stands only while every fact it cites is
 * an active user or verified fact (core/references.ts). A fact superseded or refuted since sends it back.
 */
function staleEvidence(state: DeliberationState): MoveResult | undefined {
  const stale = staleAgreed(state);
  if (!stale.length) return undefined;
  const items = stale.map(({ item, problems }) => `${item.pointId} (${problems.join('; ')})`).join(', ');
  const ids = stale.map(({ item }) => item.pointId).join(', ');
  return refuse(
    state,
    'evidence-gate',
    `Agreed on evidence that no longer holds on the final ledger: ${items}. Before synthesis, give ${ids} evidence that holds now (a points item with bucket "agreed" and new evidence or premises: an evidence update), or place ${stale.length > 1 ? 'them' : 'it'} in another bucket (dismissed or unresolved, with revision).`,
  );
}

/** Coverage check, leftovers to Not Evaluated, then the report is built (state.report marks it; it is rendered from the state). */
export function synthesize(state: DeliberationState, input: Partial<SynthesizeInput>, ctx: MoveContext): MoveResult {
  if (state.status !== 'terminated') {
    const how = state.replyRecorded
      ? 'judge this iteration with phase.advance (delib_judge); it terminates when nothing is left open, and can carry the synthesis'
      : `the consultee's reply for iteration ${state.n} comes first (delib_consult)`;
    return refuse(state, 'not-terminated', `Synthesis comes after termination (convergence, the iteration cap or an early exit): ${how}.`);
  }
  const recommendation = input.recommendation?.trim();
  if (!recommendation && !state.recommendation) {
    return refuse(state, 'recommendation-required', "The report answers the user's question: give your recommendation and confidence (high, medium, low).");
  }
  const unplaced = pointsWithStatus(state, 'pending-triage', 'pending-evaluation').map((p) => p.id);
  const quickContested = state.mode === 'quick' ? pointsWithStatus(state, 'contested').map((p) => p.id) : [];
  if (unplaced.length || quickContested.length) {
    return refuse(state, 'coverage', `Every point needs exactly one bucket: place ${[...unplaced, ...quickContested].join(', ')} (delib_judge points with a bucket).`);
  }
  const stale = staleEvidence(state);
  if (stale) return stale;
  const next = draft(state);
  if (recommendation) {
    const aspects = Object.fromEntries(Object.entries(input.aspects ?? {}).filter(([aspect]) => aspect.trim()));
    next.recommendation = { text: recommendation, confidence: input.confidence ?? 'medium', ...(Object.keys(aspects).length ? { aspects } : {}), caveats: input.caveats ?? [] };
  }
  const effects: string[] = [];
  for (const c of unsettledChallenges(next)) {
    c.status = 'resolved';
    c.resolution = 'open-at-end';
    placeUnresolved(next, { pointId: c.pointId, status: 'open-at-end', crux: c.objection, iter: next.n });
    effects.push(`${c.id} still open at the end: ${c.pointId} -> Unresolved`);
  }
  for (const p of pointsWithStatus(next, 'clarification-requested', 'contested')) {
    placeNotEvaluated(next, { ref: p.id, reason: 'ill-formed', note: p.clarification ?? 'never settled', iter: next.n });
    effects.push(`${p.id} -> Not Evaluated (clarification never answered)`);
  }
  for (const f of activeFacts(next).filter((f) => f.tag === 'codex-unverified')) {
    if (!next.notEvaluated.some((i) => i.ref === f.id)) {
      placeNotEvaluated(next, { ref: f.id, reason: 'unverified-fact', note: 'consultee claim never verified', iter: next.n });
      effects.push(`${f.id} -> Not Evaluated (unverified)`);
    }
  }
  const bad = [...placeCounts(next).entries()].filter(([, count]) => count !== 1);
  if (bad.length) throw new Error(`bug: coverage broken for ${bad.map(([id, c]) => `${id}×${c}`).join(', ')}`);
  const thin = [...next.buckets.agreed, ...next.buckets.dismissed].filter((i) => !isSubstantive(i.reason)).map((i) => i.pointId);
  if (thin.length) return refuse(state, 'substantive-reason', `Give ${thin.join(', ')} a substantive reason before synthesis.`);
  next.report = { synthesizedAt: ctx.now };
  const claims = bucketClaims(next);
  effects.push(
    `report ready${isInconclusive(next) ? ' (inconclusive)' : ''}: ${claims.agreed.length} agreed, ${claims.dismissed.length} dismissed, ${claims.unresolved.length} unresolved, ${notEvaluatedItems(next).length} not evaluated`,
  );
  return accept(next, effects, ctx);
}
