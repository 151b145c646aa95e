import type { DeliberationState } from '../../../schemas/argumentation.js';
import { challengeActions, deadlockAllowed } from './legal-actions.js';
import { activeFacts, lastIteration, pointsWithStatus, quickTurnsSpent, unsettledChallenges } from '../core/queries.js';
import { staleAgreed } from '../core/references.js';
import { arbitrationBlocker } from './arbitration-conditions.js';
import { convergenceScope } from './convergence.js';
import { stressTestView } from './stress-test.js';

/** A tool the orchestrator may call now, and what for. */
export interface LegalMove {
  move: 'delib_consult' | 'delib_judge' | 'delib_synthesize' | 'delib_arbitrate';
  why: string;
}

const ids = (xs: { id: string }[]) => xs.map((x) => x.id).join(', ');

/** Point ids with runs of three or more in a row written as a range: "P1.1 to P1.10, P3.2". */
export function pointIdList(xs: { id: string }[]): string {
  const runs: string[][] = [];
  for (const { id } of xs) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    const [iter, num] = id.split('.');
    const [lastIter, lastNum] = last?.split('.') ?? [];
    if (run && iter === lastIter && Number(num) === Number(lastNum) + 1) run.push(id);
    else runs.push([id]);
  }
  return runs.map((run) => (run.length >= 3 ? `${run[0]} to ${run.at(-1)}` : run.join(', '))).join(', ');
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

/** Agreed items whose cited facts were superseded or refuted since: synthesis refuses until they stand again. */
function restandWhy(stale: ReturnType<typeof staleAgreed>): string {
  const items = stale.map(({ item, problems }) => `${item.pointId} (${problems.join('; ')})`).join(', ');
  return `evidence no longer holds for ${items}: give each evidence that holds now (points: bucket agreed with new evidence), or another bucket`;
}

function terminatedMoves(state: DeliberationState): LegalMove[] {
  const out: LegalMove[] = [];
  const quickContested = state.mode === 'quick' ? pointsWithStatus(state, 'contested') : [];
  if (quickContested.length) out.push({ move: 'delib_judge', why: `place ${ids(quickContested)} (points with a bucket)` });
  const unverified = state.mode !== 'quick' ? activeFacts(state).filter((f) => f.tag === 'codex-unverified') : [];
  if (unverified.length && !state.report) out.push({ move: 'delib_judge', why: `verify ${ids(unverified)} (ledger), else they are listed as Not Evaluated` });
  const stale = state.report ? [] : staleAgreed(state);
  if (stale.length) out.push({ move: 'delib_judge', why: restandWhy(stale) });
  if (!quickContested.length && !stale.length && !state.report) out.push({ move: 'delib_synthesize', why: 'build the report with your recommendation' });
  if (!arbitrationBlocker(state) && !state.arbitration) out.push({ move: 'delib_arbitrate', why: arbitrationWhy(state) });
  return out;
}

/**
 * Whether the advance after this judgment can end the deliberation, so the orchestrator knows when a
 * synthesis in the same judgment takes effect (the rest of the convergence test depends on the judgment).
 */
function advanceWhy(state: DeliberationState, nothingElse: boolean): string {
  const advance = nothingElse ? 'phase.advance' : 'then phase.advance';
  if (!state.replyRecorded) return `${advance}: ends the deliberation (quick: both consultee turns spent, the last reply unusable): add synthesis`;
  if (lastIteration(state)) return `${advance}: ends the deliberation (cap): add synthesis`;
  if (state.mode === 'quick') return `${advance}: ends the deliberation if nothing stays contested: add synthesis`;
  // Convergence (iteration.ts): no new point, nothing open, and the disputed list as at the last advance.
  const scope = convergenceScope(state);
  // A synthesis given now is held (judgment.ts): it ends the deliberation if Codex's next reply has nothing further.
  const held = "a synthesis given now ends it if Codex's reply then has nothing further";
  if (scope.newPoints > 0) return `${advance} (new points: another iteration; ${held})`;
  if (scope.disputedBefore.length) return `${advance} (Codex answers the challenges' outcome: another iteration; ${held})`;
  return `${advance}: ends the deliberation (convergence) unless a challenge stays open: add synthesis`;
}

/** What the next judgment must cover, in words. */
function judgmentWhy(state: DeliberationState): string {
  const parts: string[] = [];
  const toJudge = pointsWithStatus(state, 'pending-triage', 'pending-evaluation');
  const clarifying = pointsWithStatus(state, 'clarification-requested');
  const defended = state.challenges.filter((c) => c.status === 'defended');
  // Quick mode: a defended point is placed now; at the last iteration every contested one is (synthesis needs it).
  const contested = state.mode === 'quick' ? pointsWithStatus(state, 'contested').filter((p) => p.defense || lastIteration(state)) : [];
  const pending = (state.readings?.find((r) => r.iter === state.n)?.pending ?? []).filter((p) => !p.resolved);
  if (toJudge.length) parts.push(`verdicts for ${pointIdList(toJudge)}`);
  if (defended.length) parts.push(`judge ${defended.map((c) => `${c.id} (${challengeActions(state, c.id).join('|')})`).join(', ')}`);
  if (contested.length) parts.push(`place ${ids(contested)} (bucket; agreed after your objection needs revision {from, because})`);
  if (pending.length) parts.push(`optionally correct the reading of ${pending.map((p) => p.ref).join(', ')}`);
  const stale = staleAgreed(state);
  if (stale.length) parts.push(restandWhy(stale));
  if (clarifying.length) parts.push(`${ids(clarifying)} await clarification`);
  const deadlocked = unsettledChallenges(state).filter((c) => c.status !== 'defended' && deadlockAllowed(state, c));
  if (deadlocked.length) parts.push(`${ids(deadlocked)} may be classified as deadlocked`);
  const stress = stressTestView(state);
  if (stress?.required) parts.push('record the stress test (stressTest) from the reply');
  parts.push(advanceWhy(state, parts.length === 0));
  return parts.join('; ');
}

/** The tools that make sense now, most urgent first. */
export function nextLegalMoves(state: DeliberationState): LegalMove[] {
  if (state.status === 'terminated') return terminatedMoves(state);
  if (!state.replyRecorded && !quickTurnsSpent(state)) {
    const retry = state.counters.consecutiveFormatFailures > 0 ? ' (the retry prompt)' : '';
    return [{ move: 'delib_consult', why: `ask Codex for iteration ${state.n}${retry}` }];
  }
  return [{ move: 'delib_judge', why: judgmentWhy(state) }];
}

/** Compact lines for a tool result: "tool: why". */
export function nextLines(state: DeliberationState): string[] {
  return nextLegalMoves(state).map((m) => `${m.move}: ${m.why}`);
}
