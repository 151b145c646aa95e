import type { DeliberationState } from '../../../schemas/argumentation.js';
import { nextLines } from '../rules/legal-moves.js';
import { activeFacts, iterationCap, pointsWithStatus, unsettledChallenges } from '../core/queries.js';
import { stressTestView } from '../rules/stress-test.js';
import { answerBrief } from './answer-brief.js';

/**
 * The full view (delib_status): where the deliberation stands and everything awaiting the orchestrator.
 * Once synthesized, the brief for the answer instead of the buckets and ledger (the full report has them).
 */
export function statusView(state: DeliberationState): Record<string, unknown> {
  if (state.report) {
    const { id, mode, framing, question, n, phase, status, termination } = state;
    return { id, mode, framing, question, n, phase, status, ...(termination ? { termination } : {}), brief: answerBrief(state), next: nextLines(state) };
  }
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
    awaiting: withinBudget(awaiting).map(({ item: p, shown }) => ({ id: p.id, status: p.status, ...(p.label ? { label: p.label } : {}), ...(p.partOf ? { partOf: p.partOf } : {}), text: shown(p.text), ...(p.defense ? { defense: shown(p.defense) } : {}) })),
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

/**
 * The status is the full view, yet one reply can be long: past a budget the texts still to show are cut
 * with a note, so the view stays bounded (the consult result showed each whole; the audit log keeps it).
 */
const STATUS_TEXT_BUDGET = 24_000;

function withinBudget<T>(items: T[]): { item: T; shown: (text: string) => string }[] {
  let left = STATUS_TEXT_BUDGET;
  return items.map((item) => ({
    item,
    shown: (text: string) => {
      const keep = Math.max(120, Math.min(text.length, left));
      left = Math.max(0, left - keep);
      return keep >= text.length ? text : `${text.slice(0, keep)} [... ${text.length - keep} more characters]`;
    },
  }));
}
