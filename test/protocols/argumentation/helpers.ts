import { expect } from 'vitest';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { answerBrief, applyMove, deliberationMarkdown, startDeliberation, type ItemRefusal, type MoveResult, type StartInput } from '../../../protocols/argumentation/index.js';

export const ctx = { now: '2026-01-01T00:00:00.000Z' };

/** The full report of a state synthesis has built (it is rendered from the state, not stored). */
export function reportOf(state: DeliberationState): string {
  expect(state.report, 'the report was built').toBeTruthy();
  return deliberationMarkdown(state);
}

/** The brief of a synthesized state. */
export function briefOf(state: DeliberationState) {
  expect(state.report, 'the report was built').toBeTruthy();
  return answerBrief(state);
}

/** The ids of a summary's claim lines ("P1.2 <claim> — ..."). */
export const ids = (lines: string[]) => lines.map((line) => line.split(' ')[0]);

/** The state of a move that must succeed entirely: a judgment with a refused item fails too. */
export function ok(result: MoveResult): DeliberationState {
  if (!result.ok) throw new Error(`refused: ${result.refusal.rule}: ${result.refusal.message}`);
  if (result.refused?.length) throw new Error(`items refused: ${result.refused.map((r) => `${r.item} ${r.rule}: ${r.message}`).join('; ')}`);
  return result.state;
}

/** The one refused item of a judgment. */
export function refusedItem(result: MoveResult, rule: string): ItemRefusal {
  expect(result.ok).toBe(true);
  if (!result.ok) throw new Error('unreachable');
  expect(result.refused?.map((r) => r.rule)).toEqual([rule]);
  const item = result.refused![0]!;
  expect(item.message.length).toBeGreaterThan(10);
  return item;
}

/**
 * A refusal under `rule`: of the whole move, or of the single refused item of a judgment.
 * Returns what it lists as legal (tools, or the item's actions).
 */
export function refusedWith(result: MoveResult, rule: string): string[] {
  if (result.ok) return refusedItem(result, rule).legal;
  expect(result.refusal.rule).toBe(rule);
  expect(result.refusal.message.length).toBeGreaterThan(10);
  return result.refusal.legalMoves;
}

export function start(input: Partial<StartInput> = {}): DeliberationState {
  return ok(startDeliberation({ question: 'Should the cache use Redis or Memcached?', ...input }, { ...ctx, id: 'd1' }));
}

export const apply = (state: DeliberationState, move: string, input: unknown): MoveResult => applyMove(state, move, input, ctx);
export const step = (state: DeliberationState, move: string, input: unknown): DeliberationState => ok(apply(state, move, input));
export const judge = (state: DeliberationState, input: unknown): MoveResult => apply(state, 'judge', input);
export const judged = (state: DeliberationState, input: unknown): DeliberationState => ok(judge(state, input));
export const reply = (state: DeliberationState, text: string): DeliberationState => step(state, 'reply_record', { text });
/** A judgment of points only, each item `[id, fields]`. */
export const points = (...items: [string, object][]) => ({ points: items.map(([id, fields]) => ({ id, ...fields })) });
export const advance = { phase: { advance: true } };
export const recommendation = { recommendation: 'Use Redis: persistence matters for warm restarts.', confidence: 'medium' as const };

export const REPLY_TWO = '1. Redis supports persistence. EVIDENCE: docs say RDB snapshots.\n2. Memcached is simpler to operate. INFERENCE';

/** A started deliberation whose first reply (two points) is recorded and triaged in scope. */
export function withTwoPoints(input: Partial<StartInput> = {}): DeliberationState {
  const s = step(start(input), 'reply_record', { text: REPLY_TWO, sessionId: 'sess-1' });
  return judged(s, points(['P1.1', { triage: 'in-scope' }], ['P1.2', { triage: 'in-scope' }]));
}

export const valueEvidence = { claimType: 'value', reason: 'simplicity matters for a small team' };
export const empiricalEvidence = { claimType: 'empirical', evidenceType: 'textual', evidence: 'redis.io/docs persistence: "RDB snapshots"', reason: 'the docs state it verbatim' };
export const agreeValue = { verdict: 'AGREE', ...valueEvidence };
export const agreeEmpirical = { verdict: 'AGREE', ...empiricalEvidence };
export const skeptical = { verdict: 'SKEPTICAL', flaw: 'Persistence is irrelevant for a pure cache.' };
