import type { DeliberationState } from '../../schemas/argumentation.js';
import { activeFacts, iterationCap, pointsWithStatus, unsettledChallenges } from './queries.js';

export interface LegalMove {
  move: string;
  why: string;
}

/** Arbitration triggers a machine can see: 2+ Unresolved, or early unanimity without evidence. */
function arbitrationWhy(state: DeliberationState): string {
  const { agreed, dismissed, unresolved } = state.buckets;
  if (unresolved.length >= 2) return `recommended: ${unresolved.length} items are Unresolved`;
  if (state.n <= 2 && agreed.length && !dismissed.length && !unresolved.length && agreed.every((a) => a.evidenceType === 'n/a')) {
    return 'recommended: early unanimity without evidence';
  }
  return 'optional: an unattributed review of the buckets (high stakes or user request)';
}

function terminatedMoves(state: DeliberationState): LegalMove[] {
  const out: LegalMove[] = [{ move: 'delib_synthesize', why: state.report ? 'rebuild the report' : 'build the final report' }];
  const quickContested = state.mode === 'quick' ? pointsWithStatus(state, 'contested') : [];
  if (quickContested.length) out.unshift({ move: 'bucket_assign', why: `place ${quickContested.map((p) => p.id).join(', ')} before synthesis` });
  if (state.mode === 'standard' && !state.arbitration) out.push({ move: 'arbitration_record', why: arbitrationWhy(state) });
  if (state.mode !== 'quick' && activeFacts(state).some((f) => f.tag === 'codex-unverified')) {
    out.push({ move: 'ledger_update', why: 'unverified consultee facts remain (else they are listed as Not Evaluated)' });
  }
  return out;
}

/** The moves that make sense now, most urgent first. */
export function nextLegalMoves(state: DeliberationState): LegalMove[] {
  if (state.status === 'terminated') return terminatedMoves(state);
  const out: LegalMove[] = [];
  const triage = pointsWithStatus(state, 'pending-triage');
  const evaluate = pointsWithStatus(state, 'pending-evaluation', 'clarification-requested');
  const defended = state.challenges.filter((c) => c.status === 'defended');
  if (!state.replyRecorded) {
    out.push({ move: 'reply_record', why: `send the consultee prompt for iteration ${state.n} and record its reply` });
  }
  if (triage.length) out.push({ move: 'point_triage', why: `${triage.map((p) => p.id).join(', ')} wait for triage` });
  if (evaluate.length) out.push({ move: 'point_evaluate', why: `${evaluate.map((p) => p.id).join(', ')} wait for evaluation` });
  if (defended.length) out.push({ move: 'challenge_resolve', why: `defenses on ${defended.map((c) => c.id).join(', ')} wait for judgment` });
  const deadlocked = unsettledChallenges(state).filter((c) => state.n - c.openedIter >= 3 || state.n >= iterationCap(state));
  if (deadlocked.length && !defended.length) out.push({ move: 'challenge_resolve', why: `${deadlocked.map((c) => c.id).join(', ')} may be classified as deadlocked` });
  if (state.mode === 'quick' && pointsWithStatus(state, 'contested').length) out.push({ move: 'bucket_assign', why: 'place contested points' });
  if (state.mode === 'standard' && state.phase === 'CONSTRUCTIVE' && state.stressTest.required && !state.stressTest.objection) {
    out.push({ move: 'stress_test_record', why: 'a stress test is required before CONSTRUCTIVE ends' });
  }
  if (state.replyRecorded && !triage.length && !evaluate.filter((p) => p.status === 'pending-evaluation').length && !defended.length) {
    out.push({ move: 'iteration_advance', why: state.n >= iterationCap(state) ? 'the cap is reached: terminate' : 'move to the next iteration (or terminate)' });
  }
  if (state.mode !== 'quick') out.push({ move: 'ledger_update', why: 'record a fact (user, verified, codex-unverified, revision)' });
  return out;
}

/** Compact view for humans and agents: where the deliberation stands and what is open. */
export function statusView(state: DeliberationState): object {
  const open = unsettledChallenges(state);
  return {
    id: state.id,
    mode: state.mode,
    framing: state.framing,
    n: state.n,
    cap: iterationCap(state),
    phase: state.phase,
    status: state.status,
    termination: state.termination,
    replyRecorded: state.replyRecorded,
    openChallenges: open.map((c) => ({ id: c.id, point: c.pointId, type: c.type, status: c.status, objection: c.objection })),
    unevaluatedPoints: pointsWithStatus(state, 'pending-triage', 'pending-evaluation', 'clarification-requested').map((p) => ({ id: p.id, status: p.status })),
    buckets: {
      agreed: state.buckets.agreed.length,
      dismissed: state.buckets.dismissed.length,
      unresolved: state.buckets.unresolved.length,
      notEvaluated: state.notEvaluated.length,
    },
    surfacedQuestions: state.surfacedQuestions.length,
    ledger: { active: activeFacts(state).length, total: state.ledger.length },
    formatFailures: state.counters.consecutiveFormatFailures,
    next: nextLegalMoves(state).map((m) => m.move),
  };
}
