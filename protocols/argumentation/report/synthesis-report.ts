import type { DeliberationState, SynthesisReport } from '../../../schemas/argumentation.js';
import { findPoint } from '../core/queries.js';
import { deliberationMarkdown } from './report-markdown.js';

function buildReport(state: DeliberationState): SynthesisReport {
  const text = (id: string) => {
    const point = findPoint(state, id);
    if (point) return point.narrowed ? `${point.narrowed} (narrowed from: ${point.text})` : point.text;
    return state.ledger.find((f) => f.id === id)?.text ?? '';
  };
  const { agreed, dismissed, unresolved } = state.buckets;
  const inconclusive = agreed.length === 0 && dismissed.length === 0;
  return {
    question: state.question,
    ...(state.recommendation ? { recommendation: state.recommendation } : {}),
    mode: state.mode,
    framing: state.framing,
    iterations: state.n,
    termination: state.termination,
    inconclusive,
    unblock: inconclusive
      ? unresolved.map((u) => (u.measurement ? `${u.pointId}: measure ${u.measurement} (matters at ${u.threshold}; ${u.verdictChange})` : `${u.pointId}: settle "${u.crux}"`))
      : [],
    agreed: agreed.map((i) => ({ ref: i.pointId, text: text(i.pointId), claimType: i.claimType, evidenceType: i.evidenceType, evidence: i.evidence, ...(i.premises ? { premises: i.premises } : {}), reason: i.reason })),
    dismissed: dismissed.map((i) => ({ ref: i.pointId, text: text(i.pointId), tag: i.tag, reason: i.reason })),
    unresolved: unresolved.map((i) => ({ ref: i.pointId, text: text(i.pointId), status: i.status, crux: i.crux, measurement: i.measurement, threshold: i.threshold, verdictChange: i.verdictChange })),
    surfacedQuestions: state.surfacedQuestions.map((q) => `${q.id}: ${q.text}`),
    notEvaluated: state.notEvaluated.map((i) => ({ ref: i.ref, text: text(i.ref), reason: i.reason, note: i.note })),
    stressTest: state.stressTest.objection ? state.stressTest : undefined,
    arbitration: state.arbitration
      ? { flaggedRatio: state.arbitration.flaggedRatio, warning: state.arbitration.warning, flags: state.arbitration.items.filter((i) => i.flagged), ...(state.arbitration.remarks ? { remarks: state.arbitration.remarks } : {}) }
      : undefined,
  };
}

/** Rebuilds the report of a synthesized state in place (after arbitration). */
export function rebuildReport(state: DeliberationState): void {
  const json = buildReport(state);
  state.report = { json, markdown: deliberationMarkdown(state) };
}
