import { z } from 'zod';
import { Recommendation, type DeliberationState } from '../../../schemas/argumentation.js';
import { placeNotEvaluated, placeUnresolved } from '../core/mutations.js';
import { activeFacts, isSubstantive, pointsWithStatus, unsettledChallenges } from '../core/queries.js';
import { rebuildReport } from '../report/synthesis-report.js';
import { accept, draft, refuse, type MoveContext, type MoveResult } from './result.js';

/** The orchestrator's answer to the user's question: the report leads with it. */
export const SynthesizeInput = z.object({
  recommendation: z.string().min(1).describe("your answer to the user's question"),
  confidence: Recommendation.shape.confidence,
  caveats: z.array(z.string()).optional(),
});
export type SynthesizeInput = z.infer<typeof SynthesizeInput>;

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

/** Coverage check, leftovers to Not Evaluated, then the report as JSON and Markdown (kept on state.report). */
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
  const next = draft(state);
  if (recommendation) next.recommendation = { text: recommendation, confidence: input.confidence ?? 'medium', caveats: input.caveats ?? [] };
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
  rebuildReport(next);
  const json = next.report!.json;
  effects.push(`report ready${json.inconclusive ? ' (inconclusive)' : ''}: ${json.agreed.length} agreed, ${json.dismissed.length} dismissed, ${json.unresolved.length} unresolved, ${json.notEvaluated.length} not evaluated`);
  return accept(next, effects, ctx);
}
