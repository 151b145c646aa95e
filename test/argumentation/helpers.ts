import { expect } from 'vitest';
import type { DeliberationState } from '../../schemas/argumentation.js';
import { applyMove, startDeliberation, type MoveResult, type StartInput } from '../../protocols/argumentation/index.js';

export const ctx = { now: '2026-01-01T00:00:00.000Z' };

export function ok(result: MoveResult): DeliberationState {
  if (!result.ok) throw new Error(`refused: ${result.refusal.rule}: ${result.refusal.message}`);
  return result.state;
}

export function refusedWith(result: MoveResult, rule: string): string[] {
  expect(result.ok).toBe(false);
  if (result.ok) return [];
  expect(result.refusal.rule).toBe(rule);
  expect(result.refusal.message.length).toBeGreaterThan(10);
  return result.refusal.legalMoves;
}

export function start(input: Partial<StartInput> = {}): DeliberationState {
  return ok(startDeliberation({ question: 'Should the cache use Redis or Memcached?', ...input }, { ...ctx, id: 'd1' }));
}

export const apply = (state: DeliberationState, move: string, input: unknown): MoveResult => applyMove(state, move, input, ctx);
export const step = (state: DeliberationState, move: string, input: unknown): DeliberationState => ok(apply(state, move, input));

export const REPLY_TWO = '1. Redis supports persistence. EVIDENCE: docs say RDB snapshots.\n2. Memcached is simpler to operate. INFERENCE';

/** A started deliberation whose first reply (two points) is recorded and triaged in scope. */
export function withTwoPoints(input: Partial<StartInput> = {}): DeliberationState {
  let s = start(input);
  s = step(s, 'reply_record', { text: REPLY_TWO, sessionId: 'sess-1' });
  s = step(s, 'point_triage', { pointId: 'P1.1', triage: 'in-scope', reason: 'it answers the question asked' });
  s = step(s, 'point_triage', { pointId: 'P1.2', triage: 'in-scope', reason: 'it answers the question asked' });
  return s;
}

export const agreeValue = { classification: 'AGREE', claimType: 'value', reason: 'simplicity matters for a small team' };
export const agreeEmpirical = { classification: 'AGREE', claimType: 'empirical', evidenceType: 'textual', evidence: 'redis.io/docs persistence: "RDB snapshots"', reason: 'the docs state it verbatim' };
export const skeptical = { classification: 'SKEPTICAL', flaw: 'Persistence is irrelevant for a pure cache.' };
