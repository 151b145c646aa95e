import type { DeliberationState, Fact, Point } from '../../../schemas/argumentation.js';
import { arbitrationRefs, nextLegalMoves } from '../../../protocols/argumentation/index.js';

/** Random but mostly legal moves for the property tests: reply_record, judge, synthesize, arbitration_record. */
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
const lastClass = (s: DeliberationState, id: string) => s.positions.filter((p) => p.pointId === id).at(-1)?.classification;

/** What the consultee may answer: challenge ids, or in quick mode the contested points. */
function objectionRefs(s: DeliberationState): string[] {
  return s.mode === 'quick' ? s.points.filter((p) => p.status === 'contested').map((p) => p.id) : s.challenges.map((c) => c.id);
}

function replyText(s: DeliberationState, a: number, b: number): string {
  const refs = objectionRefs(s);
  const lines: string[] = [];
  switch (b % 12) {
    case 0: return 'Prose without structure.';
    case 1: return '1. I ran it and it works.';
    case 2: lines.push(`1. New claim ${a}. GUESS`, `2. Evidence ${a}. EVIDENCE: log.txt:${a}`); break;
    case 3: lines.push(`1. Extends ${pick(s.points.map((p) => p.id), a) ?? 'P1.1'}. INFERENCE`, `2. Evidence on ${pick(s.points.map((p) => p.id), b) ?? 'P1.1'}. EVIDENCE: bench.txt:${a}`); break;
    case 4: if (refs.length) lines.push(s.mode === 'quick' ? `Re ${pick(refs, a)}: conceded.` : `I concede ${pick(refs, a)}.`); lines.push('2. Another point. INFERENCE'); break;
    case 5: case 6: for (const id of refs) lines.push(`Re ${id}: defended. INFERENCE`); break;
    case 7: for (const id of refs) lines.push(`Re ${id}: partly conceded. Narrowed claim: it holds only under load.`); break;
    case 8: return 'No further points.';
    case 9: lines.push(`1. This falls out of ${pick(refs, a) ?? 'C1'}: the lag grows. INFERENCE`); break;
    case 10: lines.push('1. A claim. INFERENCE', '', '## Suggested rollout', 'Ship it behind a flag.', '', 'What is your peak job rate?'); break;
    default: for (const id of refs.filter((_, i) => (a >> i) & 1)) lines.push(`Re ${id}: defended. INFERENCE`); lines.push('2. Side note. GUESS', '2. Same number again. GUESS', '5. A gap. EVIDENCE: x.txt:1');
  }
  return lines.join('\n');
}

/** An id as an orchestrator might spell it: the engine reads every spelling as the same id. */
export function spell(id: string, a: number): string {
  switch (a % 7) {
    case 1: return id.toLowerCase();
    case 2: return id.replace(/(\d+)/, '0$1');
    case 3: return id.replace(/^([A-Z])/, '$1 ');
    case 4: return id.replace(/[A-Z0-9.]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    default: return id;
  }
}

/** Evidence text: mostly a check the orchestrator made or ledger facts, sometimes what the evidence gate must refuse. */
function evidenceText(s: DeliberationState, a: number, b: number, flag: boolean): string {
  const fact = pick(s.ledger, b)?.id ?? 'F1';
  switch (flag ? b % 9 : 0) {
    case 0: return 'output: 3 passed';
    case 1: return `see ${spell(fact, a)}`;
    case 2: return 'see F99';
    case 3: return `Codex said so in ${pick(s.points, a)?.id ?? 'P1.1'}`;
    case 4: return 'as Codex verified';
    default: return `see ${fact}`;
  }
}

/** A verdict item for one point, usually well-formed. */
function verdictItem(s: DeliberationState, p: Point, a: number, b: number, flag: boolean): Record<string, unknown> {
  const cls = CLASSES[b % 4]!;
  const prev = lastClass(s, p.id);
  const revision = b % 3 !== 1 && prev && prev !== cls ? { from: prev, because: 'new measurements arrived today' } : undefined;
  const evidence = evidenceText(s, a, b, flag);
  const claimType = (['value', 'empirical', 'logical'] as const)[a % 3];
  const fields = { claimType, evidenceType: (['execution', 'textual', 'n/a'] as const)[a % 3], evidence, premises: a % 3 === 2 ? [spell(pick(s.ledger, a)?.id ?? 'F1', b)] : undefined, reason: reason(flag && a % 5 === 0) };
  return { id: spell(p.id, a + b), verdict: cls, flaw: flag || a % 3 ? 'It ignores load.' : undefined, terminalWhy: 'it is wrong at the root', revision, decisive: flag, ...fields };
}

function bucketItem(s: DeliberationState, p: Point, a: number, b: number): Record<string, unknown> {
  const prev = lastClass(s, p.id);
  const bucket = (['agreed', 'dismissed', 'unresolved'] as const)[b % 3];
  const to = bucket === 'agreed' ? 'AGREE' : bucket === 'dismissed' && prev === 'AGREE' ? 'REJECT' : undefined;
  const revision = to && prev && prev !== to && b % 4 ? { from: prev, because: 'new measurements arrived today' } : undefined;
  // Agreed again on an Agreed point: an evidence update when it cites something new, else a repeat the engine refuses.
  const agreedAgain = bucket === 'agreed' && p.status === 'agreed' && a % 2 ? { claimType: 'empirical', evidenceType: 'execution', evidence: evidenceText(s, a, b, a % 3 === 0) } : { claimType: 'value' };
  return { id: spell(p.id, b), bucket, tag: (['FALSE', 'RISKY', undefined] as const)[a % 3], status: (['blocked', 'tradeoff'] as const)[a % 2], crux: 'throughput against cost', measurement: 'p99', threshold: '5 ms', verdictChange: a % 7 ? 'flips it' : undefined, revision, ...agreedAgain, reason: reason(a % 11 === 0) };
}

function challengeItem(id: string, a: number, b: number, flag: boolean): Record<string, unknown> {
  return { id: spell(id, a), verdict: (['accepted', 'rebutted', 'rejected', 'deadlock'] as const)[b % 4], upgradeTo: flag ? 'AGREE' : 'SKEPTICAL', deadlock: (['missing-data', 'definitional', 'criteria'] as const)[a % 3], measurement: 'p99', threshold: '5 ms', verdictChange: 'flips it', claimType: a % 2 ? 'value' : 'empirical', evidence: flag ? 'bench.txt:3 "p99 4ms"' : undefined, reason: 'the defense cites the benchmark' };
}

const awaiting = (s: DeliberationState) => s.points.filter((p) => ['pending-triage', 'pending-evaluation'].includes(p.status));

/** Items for everything waiting, then the advance: the judgment a diligent orchestrator sends. */
function fullJudgment(s: DeliberationState, act: Action): Record<string, unknown> {
  const { a, b, flag } = act;
  const waiting = awaiting(s);
  const placeable = s.mode === 'quick' ? s.points.filter((p) => p.status === 'contested' && (p.defense || s.status === 'terminated')) : [];
  const pending = (s.readings?.find((r) => r.iter === s.n)?.pending ?? []).filter((p) => !p.resolved);
  const reading = a % 3 === 0 && pending.length ? [{ ref: pick(pending, b)!.ref, as: (['point', 'question', 'defense', 'concession'] as const)[a % 4] }] : undefined;
  return {
    ...(reading ? { reading } : {}),
    points: [...waiting.map((p, i) => verdictItem(s, p, a + i, b + i * 7, flag || i % 2 === 0)), ...placeable.map((p, i) => bucketItem(s, p, a + i, b + i))],
    challenges: s.challenges.filter((c) => c.status === 'defended').map((c, i) => challengeItem(c.id, a + i, (b + i) % 3 === 1 ? 1 : b % 2 ? 0 : 2, flag)),
    ...(s.stressTest.required && !s.stressTest.objection && a % 2 ? { stressTest: { objection: 'The queue is a single point of failure.', severity: (['fatal', 'unresolved', 'mitigable'] as const)[b % 3], response: 'Run a replica.' } } : {}),
    phase: { advance: a % 13 !== 0, trivial: a % 31 === 0, stressTestWarranted: s.mode === 'standard' && flag && b % 3 === 0 },
    ...(a % 4 === 0 ? { synthesis: { recommendation: 'Adopt the Postgres queue.', confidence: 'medium' } } : {}),
  };
}

const KIND: Record<string, number> = { delib_consult: 0, delib_judge: 11, delib_synthesize: 9, delib_arbitrate: 8 };

/** Mostly follow a legal next move (to reach deep states), sometimes anything (to exercise refusals). */
function chooseKind(s: DeliberationState, act: Action): number {
  if (act.kind < 14) return act.kind;
  return KIND[pick(nextLegalMoves(s).map((m) => m.move), act.b) ?? ''] ?? act.kind;
}

export function inputFor(s: DeliberationState, act: Action): [string, unknown] {
  const { a, b, flag } = act;
  const kind = chooseKind(s, act) % 12;
  // Mostly target what is waiting, sometimes anything (to exercise refusals).
  const targeted = a % 4 !== 0;
  const waiting = awaiting(s);
  // Sometimes an id that names nothing: its refusal must still say what is legal, or why nothing is.
  const point = a % 17 === 0 ? ({ id: 'P9.9' } as Point) : (pick(targeted && waiting.length ? waiting : s.points, a) ?? ({ id: 'P1.1' } as Point));
  const defended = s.challenges.filter((c) => c.status === 'defended');
  const challenge = pick(targeted && defended.length ? defended : s.challenges, a)?.id ?? 'C1';
  const fact = pick(s.ledger, b)?.id ?? 'F1';
  switch (kind) {
    case 0: return ['reply_record', { text: replyText(s, a, b) }];
    case 1: return ['judge', { points: [{ id: point.id, triage: (['in-scope', 'out-of-scope', 'anchor-shift', 'new-argument'] as const)[b % 4], reason: reason(flag && b % 4 === 0), decisive: flag }] }];
    case 2: return ['judge', { points: [verdictItem(s, point, a, b, flag)] }];
    case 3: return ['judge', { challenges: [challengeItem(challenge, a, b, flag)] }];
    case 4: return ['judge', { points: [bucketItem(s, point, a, b)] }];
    case 5: return ['judge', { phase: { advance: !flag || a % 2 === 0, trivial: a % 29 === 0, stressTestWarranted: flag } }];
    case 6: return ['judge', { ledger: [{ action: 'add', text: `fact ${a}`, tag: TAGS[b % 4], reference: flag ? 'cmd -> out' : undefined, justification: flag ? 'why' : undefined }] }];
    case 7: return ['judge', { ledger: [b % 2 ? { action: 'supersede', factId: spell(fact, a), text: `new ${a}`, tag: TAGS[a % 4], reference: 'x:1', justification: 'why' } : { action: 'verify', factId: spell(fact, b), outcome: (['confirmed', 'partial', 'refuted'] as const)[a % 3], reference: flag && a % 5 === 0 ? 'Codex said so' : 'x:2', verifiedText: 'part', unverifiedRest: 'rest' }] }];
    case 8: return b % 2 ? ['judge', { stressTest: { objection: 'o', severity: 'fatal', response: 'r' } }] : ['arbitration_record', { items: arbitrationRefs(s).map((ref, k) => ({ ref, flagged: ((a >> k) & 1) === 1 })), remarks: flag ? 'One side was never argued.' : undefined }];
    case 9: return ['synthesize', a % 5 ? { recommendation: 'Adopt the Postgres queue.', confidence: 'low' } : {}];
    case 10: {
      const pending = s.readings?.find((r) => r.iter === s.n)?.pending ?? [];
      const ref = pick([...pending.map((p) => p.ref), ...s.challenges.map((c) => c.id)], a) ?? 'S1';
      return ['judge', { reading: [{ ref, as: (['point', 'question', 'defense', 'concession'] as const)[b % 4], challenge: flag ? pick(s.challenges, b)?.id : undefined }] }];
    }
    default: return ['judge', fullJudgment(s, act)];
  }
}
