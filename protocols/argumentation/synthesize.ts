import type { DeliberationState, SynthesisReport } from '../../schemas/argumentation.js';
import { placeNotEvaluated, placeUnresolved } from './mutations.js';
import { activeFacts, findPoint, isSubstantive, pointsWithStatus, unsettledChallenges } from './queries.js';
import { renderMarkdown } from './report-markdown.js';
import { accept, draft, refuse, type MoveContext, type MoveResult } from './result.js';

const excerpt = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** How many places each point occupies (buckets plus Not Evaluated plus in-flight statuses). */
export function placeCounts(state: DeliberationState): Map<string, number> {
  const counts = new Map(state.points.map((p) => [p.id, 0]));
  const bump = (id: string) => counts.set(id, (counts.get(id) ?? 0) + 1);
  state.buckets.agreed.forEach((i) => bump(i.pointId));
  state.buckets.dismissed.forEach((i) => bump(i.pointId));
  state.buckets.unresolved.forEach((i) => bump(i.pointId));
  state.notEvaluated.filter((i) => i.ref.startsWith('P')).forEach((i) => bump(i.ref));
  pointsWithStatus(state, 'pending-triage', 'pending-evaluation', 'clarification-requested', 'contested').forEach((p) => bump(p.id));
  return counts;
}

function buildReport(state: DeliberationState): SynthesisReport {
  const text = (id: string) => excerpt(findPoint(state, id)?.text ?? state.ledger.find((f) => f.id === id)?.text ?? '');
  const { agreed, dismissed, unresolved } = state.buckets;
  const inconclusive = agreed.length === 0 && dismissed.length === 0;
  return {
    question: state.question,
    mode: state.mode,
    framing: state.framing,
    iterations: state.n,
    termination: state.termination,
    inconclusive,
    unblock: inconclusive
      ? unresolved.map((u) => (u.measurement ? `${u.pointId}: measure ${u.measurement} (matters at ${u.threshold}; ${u.verdictChange})` : `${u.pointId}: settle "${u.crux}"`))
      : [],
    agreed: agreed.map((i) => ({ ref: i.pointId, text: text(i.pointId), claimType: i.claimType, evidenceType: i.evidenceType, evidence: i.evidence, reason: i.reason })),
    dismissed: dismissed.map((i) => ({ ref: i.pointId, text: text(i.pointId), tag: i.tag, reason: i.reason })),
    unresolved: unresolved.map((i) => ({ ref: i.pointId, text: text(i.pointId), status: i.status, crux: i.crux, measurement: i.measurement, threshold: i.threshold, verdictChange: i.verdictChange })),
    surfacedQuestions: state.surfacedQuestions.map((q) => `${q.id}: ${q.text}`),
    notEvaluated: state.notEvaluated.map((i) => ({ ref: i.ref, text: text(i.ref), reason: i.reason, note: i.note })),
    stressTest: state.stressTest.objection ? state.stressTest : undefined,
    arbitration: state.arbitration ? { flaggedRatio: state.arbitration.flaggedRatio, warning: state.arbitration.warning } : undefined,
  };
}

/** Coverage check, leftovers to Not Evaluated, then the report as JSON and Markdown (kept on state.report). */
export function synthesize(state: DeliberationState, _input: unknown, ctx: MoveContext): MoveResult {
  if (state.status !== 'terminated') {
    return refuse(state, 'not-terminated', 'Synthesis comes after termination (convergence, the iteration cap or an early exit): call iteration_advance.');
  }
  const unplaced = pointsWithStatus(state, 'pending-triage', 'pending-evaluation').map((p) => p.id);
  const quickContested = state.mode === 'quick' ? pointsWithStatus(state, 'contested').map((p) => p.id) : [];
  if (unplaced.length || quickContested.length) {
    return refuse(state, 'coverage', `Every point needs exactly one bucket: place ${[...unplaced, ...quickContested].join(', ')} (bucket_assign).`);
  }
  const next = draft(state);
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
  const json = buildReport(next);
  next.report = { json, markdown: renderMarkdown(json) };
  effects.push(`report ready${json.inconclusive ? ' (inconclusive)' : ''}: ${json.agreed.length} agreed, ${json.dismissed.length} dismissed, ${json.unresolved.length} unresolved, ${json.notEvaluated.length} not evaluated`);
  return accept(next, effects, ctx);
}
