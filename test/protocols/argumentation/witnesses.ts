import type { DeliberationState, Point } from '../../../schemas/argumentation.js';
import { applyMove, arbitrationRefs, challengeActions, pointActions, type MoveResult } from '../../../protocols/argumentation/index.js';
import { ctx } from './helpers.js';
import { staleAgreed } from '../../../protocols/argumentation/core/references.js';

/**
 * Witness arguments for what the engine says is legal: for a tool nextLegalMoves names, for an
 * action an item refusal lists. Each returns candidate (move, input) pairs; the claim under test is
 * that at least one of them succeeds outright (no refusal, no refused item).
 */
export type Candidate = [move: string, input: unknown];

const because = 'new measurements arrived this iteration';
const lastClass = (s: DeliberationState, id: string) => s.positions.filter((p) => p.pointId === id).at(-1)?.classification;
const revision = (s: DeliberationState, id: string, to: string) => {
  const prev = lastClass(s, id);
  return prev && prev !== to ? { revision: { from: prev, because } } : {};
};
const value = { claimType: 'value', reason: 'it fits what the team values most' };

function verdicts(s: DeliberationState, id: string): Record<string, unknown>[] {
  return [
    { id, decisive: true, verdict: 'ILL-FORMED', flaw: 'Which workload is meant here?' },
    { id, decisive: true, verdict: 'AGREE', ...value, ...revision(s, id, 'AGREE') },
    { id, decisive: true, verdict: 'SKEPTICAL', flaw: 'It ignores the failover case.', ...revision(s, id, 'SKEPTICAL') },
  ];
}

function buckets(s: DeliberationState, p: Point): Record<string, unknown>[] {
  const prev = lastClass(s, p.id);
  const all = [
    { id: p.id, bucket: 'agreed', ...value, ...revision(s, p.id, 'AGREE') },
    { id: p.id, bucket: 'dismissed', tag: 'FALSE', reason: 'the benchmark contradicts it', ...(prev === 'AGREE' ? revision(s, p.id, 'REJECT') : {}) },
    { id: p.id, bucket: 'unresolved', status: 'tradeoff', crux: 'throughput against operating cost' },
  ];
  return all.filter((c) => c.bucket !== p.status);
}

/** Candidates for one action on one ref ("verdict" on P1.2, "deadlock" on C3...). */
export function actionWitnesses(s: DeliberationState, ref: string, action: string): Candidate[] {
  const point = s.points.find((p) => p.id === ref);
  const items = (points: unknown[]): Candidate[] => points.map((p) => ['judge', { points: [p] }]);
  if (point) {
    if (action === 'triage') return items([{ id: ref, triage: 'in-scope', decisive: true }, { id: ref, triage: 'out-of-scope', reason: 'it is outside the question as asked' }]);
    if (action === 'verdict') return items(verdicts(s, ref));
    if (action === 'bucket') return items(buckets(s, point));
    return [];
  }
  const challenge = { id: ref, reason: 'the defense and the evidence decide it' };
  const verdict: Record<string, object> = {
    accepted: { verdict: 'accepted', upgradeTo: 'AGREE', ...value },
    rejected: { verdict: 'rejected', evidence: 'bench.txt:3 "p99 9ms"' },
    rebutted: { verdict: 'rebutted' },
    deadlock: { verdict: 'deadlock', deadlock: 'criteria' },
  };
  return verdict[action] ? [['judge', { challenges: [{ ...challenge, ...verdict[action] }] }]] : [];
}

/** The judgment that settles everything awaiting, built only from the actions the engine lists, then advances. */
function fullJudgment(s: DeliberationState): Record<string, unknown> {
  const awaiting = s.points.filter((p) => ['pending-triage', 'pending-evaluation'].includes(p.status) || (s.mode === 'quick' && p.status === 'contested' && (p.defense || s.status === 'terminated')));
  const points = awaiting.map((p) => {
    const actions = pointActions(s, p.id);
    if (actions.includes('verdict') && p.status !== 'contested') return verdicts(s, p.id)[1];
    return actions.includes('bucket') ? buckets(s, p).at(-1) : { id: p.id };
  });
  // An Agreed item whose cited fact was superseded since stands again on new grounds (an evidence update).
  const restand = staleAgreed(s).map(({ item }) => ({ id: item.pointId, bucket: 'agreed', ...value }));
  const challenges = s.challenges.filter((c) => c.status === 'defended').map((c) => ({ id: c.id, ...(challengeActions(s, c.id).includes('accepted') ? { verdict: 'accepted', upgradeTo: 'AGREE', ...value } : { verdict: 'deadlock', deadlock: 'criteria', reason: 'neither side can settle the criteria' }) }));
  const unverified = s.status === 'terminated' ? s.ledger.filter((f) => f.tag === 'codex-unverified' && !f.supersededBy && !f.refuted) : [];
  const stress = s.status === 'active' && s.stressTest.required && !s.stressTest.objection && s.phase === 'CONSTRUCTIVE';
  return {
    ledger: unverified.map((f) => ({ action: 'verify', factId: f.id, outcome: 'confirmed', reference: 'checked: bench.txt:1' })),
    points: [...points, ...restand],
    challenges,
    ...(stress ? { stressTest: { objection: 'The queue is a single point of failure.', severity: 'mitigable', response: 'Run a replica.' } } : {}),
    ...(s.status === 'active' ? { phase: { advance: true } } : {}),
  };
}

/** Candidates for a tool nextLegalMoves names (or a refusal lists). */
export function toolWitnesses(s: DeliberationState, tool: string): Candidate[] {
  switch (tool) {
    case 'delib_consult': return [['reply_record', { text: '1. A new angle on operating cost. INFERENCE' }]];
    case 'delib_judge': return [['judge', fullJudgment(s)]];
    case 'delib_synthesize': return [['synthesize', { recommendation: 'Adopt the Postgres queue.', confidence: 'medium' }]];
    case 'delib_arbitrate': return [['arbitration_record', { items: arbitrationRefs(s).map((ref) => ({ ref, flagged: false })) }]];
    default: return [];
  }
}

/** A judgment must also change something: an empty one would witness nothing. */
export const succeeded = (s: DeliberationState, move: string, r: MoveResult): boolean => r.ok && !r.refused?.length && (move !== 'judge' || JSON.stringify(r.state) !== JSON.stringify(s));

/** Undefined when some candidate succeeds; else what each candidate met, for the failure message. */
export function noWitness(s: DeliberationState, candidates: Candidate[]): string | undefined {
  if (!candidates.length) return 'no witness arguments known';
  const why: string[] = [];
  for (const [move, input] of candidates) {
    const r = applyMove(s, move, input, ctx);
    if (succeeded(s, move, r)) return undefined;
    why.push(`${move} ${JSON.stringify(input)} -> ${r.ok ? (r.refused?.length ? JSON.stringify(r.refused) : 'no change') : `${r.refusal.rule}: ${r.refusal.message}`}`);
  }
  return why.join('\n');
}
