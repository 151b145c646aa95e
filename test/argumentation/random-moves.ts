import type { DeliberationState, Fact } from '../../schemas/argumentation.js';
import { nextLegalMoves } from '../../protocols/argumentation/index.js';

/** Random but mostly legal move inputs for the property test. */
export const QUESTION = 'Which queue should we adopt?';
const CLASSES = ['AGREE', 'SKEPTICAL', 'REJECT', 'ILL-FORMED'] as const;
const TAGS: Fact['tag'][] = ['user', 'verified', 'codex-unverified', 'revision'];
export const MAY_SUPERSEDE: Record<Fact['tag'], Fact['tag'][]> = {
  user: ['user'],
  verified: ['user', 'verified'],
  revision: ['user', 'verified', 'revision'],
  'codex-unverified': ['user', 'verified', 'revision', 'codex-unverified'],
};

export type Action = { kind: number; a: number; b: number; flag: boolean };
const pick = <T>(xs: readonly T[], i: number): T | undefined => (xs.length ? xs[i % xs.length] : undefined);
const reason = (flag: boolean) => (flag ? 'ok' : 'because the measured data supports it');

function replyText(s: DeliberationState, a: number, b: number): string {
  const ids = s.challenges.map((c) => c.id);
  const lines: string[] = [];
  switch (b % 9) {
    case 0: return 'Prose without structure.';
    case 1: return '1. I ran it and it works.';
    case 6: case 7: for (const id of ids) lines.push(`Re ${id}: defended. INFERENCE`); break;
    case 8: lines.push('Nothing new. INFERENCE', ...ids.map((id) => `Re ${id}: holds.`)); break;
    case 2: lines.push(`1. New claim ${a}. GUESS`, `2. Evidence ${a}. EVIDENCE: log.txt:${a}`); break;
    case 3: lines.push(`1. Extends ${pick(s.points.map((p) => p.id), a) ?? 'P1.1'}. INFERENCE`); break;
    case 4: if (ids.length) lines.push(`1. I concede ${pick(ids, a)}.`); lines.push('2. Another point. INFERENCE'); break;
    default: for (const id of ids.filter((_, i) => (a >> i) & 1)) lines.push(`Re ${id}: defended. INFERENCE`); lines.push('1. Side note. GUESS');
  }
  return lines.join('\n');
}

const KIND: Record<string, number> = { reply_record: 0, point_triage: 1, point_evaluate: 2, challenge_resolve: 3, bucket_assign: 4, iteration_advance: 5, ledger_update: 7, stress_test_record: 8, arbitration_record: 8, delib_synthesize: 9 };

/** Mostly follow a legal next move (to reach deep states), sometimes anything (to exercise refusals). */
function chooseKind(s: DeliberationState, act: Action): number {
  if (act.kind < 14) return act.kind;
  const legal = nextLegalMoves(s).map((m) => m.move).filter((m) => m !== 'ledger_update' || s.ledger.some((f) => f.tag === 'codex-unverified'));
  return KIND[pick(legal, act.b) ?? ''] ?? act.kind;
}

export function inputFor(s: DeliberationState, act: Action): [string, unknown] {
  const { a, b, flag } = act;
  const kind = chooseKind(s, act);
  // Mostly target what is waiting, sometimes anything (to exercise refusals).
  const targeted = a % 4 !== 0;
  const waiting = s.points.filter((p) => (kind % 10 === 1 ? p.status === 'pending-triage' : ['pending-evaluation', 'clarification-requested', 'contested'].includes(p.status)));
  const point = pick(targeted && waiting.length ? waiting : s.points, a)?.id ?? 'P1.1';
  const defended = s.challenges.filter((c) => c.status === 'defended');
  const challenge = pick(targeted && defended.length ? defended : s.challenges, a)?.id ?? 'C1';
  const fact = pick(s.ledger, b)?.id ?? 'F1';
  const cls = CLASSES[b % 4];
  const claimType = a % 3 === 0 ? 'value' : 'empirical';
  const evidenceType = (['execution', 'textual', 'n/a'] as const)[a % 3];
  const evidence = flag ? `see ${fact}` : 'output: 3 passed';
  const agreed = { claimType, evidenceType, evidence, reason: reason(flag && a % 5 === 0) };
  const prev = s.positions.filter((p) => p.pointId === point).at(-1)?.classification;
  const revision = b % 3 === 0 && prev ? { from: prev, because: 'new measurements arrived today' } : undefined;
  switch (kind % 10) {
    case 0: return ['reply_record', { text: replyText(s, a, b) }];
    case 1: return ['point_triage', { pointId: point, triage: (['in-scope', 'out-of-scope', 'anchor-shift'] as const)[b % 3], reason: reason(flag && b % 4 === 0), decisive: flag }];
    case 2: return ['point_evaluate', { pointId: point, classification: cls, flaw: flag || a % 3 ? 'It ignores load.' : undefined, terminalWhy: 'it is wrong at the root', revision, ...agreed }];
    case 3: return ['challenge_resolve', { challengeId: challenge, verdict: (['accepted', 'rebutted', 'rejected', 'deadlock'] as const)[b % 4], upgradeTo: flag ? 'AGREE' : 'SKEPTICAL', deadlock: (['missing-data', 'definitional', 'criteria'] as const)[a % 3], measurement: 'p99', threshold: '5 ms', verdictChange: 'flips it', ...agreed, reason: 'the defense cites the benchmark' }];
    case 4: return ['bucket_assign', { pointId: point, bucket: (['agreed', 'dismissed', 'unresolved'] as const)[b % 3], tag: (['FALSE', 'RISKY', 'CONCEDED'] as const)[a % 3], status: (['blocked', 'tradeoff'] as const)[a % 2], crux: 'throughput against cost', revision, ...agreed }];
    case 5: return ['iteration_advance', { trivial: a % 29 === 0, stressTestWarranted: flag }];
    case 6: return ['ledger_update', { action: 'add', text: `fact ${a}`, tag: TAGS[b % 4], reference: flag ? 'cmd -> out' : undefined, justification: flag ? 'why' : undefined }];
    case 7: return b % 2 ? ['ledger_update', { action: 'supersede', factId: fact, text: `new ${a}`, tag: TAGS[a % 4], reference: 'x:1', justification: 'why' }] : ['ledger_update', { action: 'verify', factId: fact, outcome: (['confirmed', 'partial', 'refuted'] as const)[a % 3], reference: 'x:2', verifiedText: 'part', unverifiedRest: 'rest' }];
    case 8: return b % 2 ? ['stress_test_record', { objection: 'o', severity: 'fatal', response: 'r' }] : ['arbitration_record', { items: [...s.buckets.agreed, ...s.buckets.dismissed, ...s.buckets.unresolved].map((i, k) => ({ ref: i.pointId, flagged: ((a >> k) & 1) === 1 })) }];
    default: return ['delib_synthesize', {}];
  }
}

