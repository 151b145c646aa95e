import type { DeliberationState } from '../../../schemas/argumentation.js';
import { nextLines } from '../rules/legal-moves.js';
import { activeFacts, iterationCap, pointsWithStatus, unsettledChallenges } from '../core/queries.js';
import { stressTestView } from '../rules/stress-test.js';

/** The full view (delib_status): where the deliberation stands and everything awaiting the orchestrator. */
export function statusView(state: DeliberationState): Record<string, unknown> {
  const open = unsettledChallenges(state);
  const awaiting = pointsWithStatus(state, 'pending-triage', 'pending-evaluation', 'clarification-requested', ...(state.mode === 'quick' ? (['contested'] as const) : []));
  const reading = state.readings?.find((r) => r.iter === state.n);
  return {
    id: state.id,
    mode: state.mode,
    framing: state.framing,
    question: state.question,
    n: state.n,
    cap: iterationCap(state),
    phase: state.phase,
    status: state.status,
    ...(state.termination ? { termination: state.termination } : {}),
    replyRecorded: state.replyRecorded,
    ...(reading?.headline ? { headline: reading.headline } : {}),
    awaiting: awaiting.map((p) => ({ id: p.id, status: p.status, ...(p.label ? { label: p.label } : {}), text: p.text, ...(p.defense ? { defense: p.defense } : {}) })),
    openChallenges: open.map((c) => ({ id: c.id, point: c.pointId, type: c.type, status: c.status, objection: c.objection, ...(c.defense ? { defense: c.defense } : {}), ...(c.partial ? { narrowedClaim: c.narrowedClaim } : {}) })),
    ...(reading?.pending.some((p) => !p.resolved) ? { readingPending: reading.pending.filter((p) => !p.resolved) } : {}),
    buckets: {
      agreed: state.buckets.agreed.map((i) => i.pointId),
      dismissed: state.buckets.dismissed.map((i) => `${i.pointId} ${i.tag}`),
      unresolved: state.buckets.unresolved.map((i) => `${i.pointId} ${i.status}`),
      notEvaluated: state.notEvaluated.map((i) => `${i.ref} ${i.reason}`),
    },
    ...(state.surfacedQuestions.length ? { surfacedQuestions: state.surfacedQuestions.map((q) => `${q.id}: ${q.text}`) } : {}),
    ledger: activeFacts(state).map((f) => `${f.id} [${f.tag}] ${f.text}`),
    ...(stressTestView(state) ? { stressTest: stressTestView(state) } : {}),
    formatFailures: state.counters.consecutiveFormatFailures,
    next: nextLines(state),
  };
}
