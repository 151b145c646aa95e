import { describe, expect, it } from 'vitest';
import { applyMove, startDeliberation } from '../../../protocols/argumentation/index.js';
import { STATE_LIMIT_CHARS } from '../../../protocols/argumentation/moves/capacity.js';
import type { DeliberationState } from '../../../schemas/argumentation.js';

const ctx = { now: '2026-01-01T00:00:00.000Z' };

/** A minimal deliberation with one reply recorded, so the ledger is open. */
function replied(): DeliberationState {
  const started = startDeliberation({ question: 'Ship?', mode: 'minimal' }, { ...ctx, id: 'd' });
  if (!started.ok) throw new Error('start refused');
  const reply = applyMove(started.state, 'reply_record', { text: '1. A point. INFERENCE' }, ctx);
  if (!reply.ok) throw new Error(reply.refusal.message);
  return reply.state;
}

/** 200 facts of ~10,000 characters: every field within its own limit, 2 MB in all. */
const bigLedger = (round: number) =>
  Array.from({ length: 200 }, (_, k) => ({ action: 'add', text: `fact ${round}-${k} ${'f'.repeat(1_980)}`, tag: 'user', reference: 'r'.repeat(7_990) }));

describe('a deliberation holds at most STATE_LIMIT_CHARS', () => {
  it('a move that would take it over the limit is refused, names the limit and the largest part, and changes nothing', () => {
    let state = replied();
    let refusal;
    for (let round = 0; round < 5 && !refusal; round++) {
      const before = JSON.stringify(state);
      const result = applyMove(state, 'judge', { ledger: bigLedger(round) }, ctx);
      if (result.ok) {
        expect(result.refused ?? []).toEqual([]);
        state = result.state;
        continue;
      }
      refusal = result.refusal;
      expect(JSON.stringify(state)).toBe(before);
    }
    expect(refusal).toMatchObject({ rule: 'deliberation-full', message: expect.stringMatching(/over its limit of 4,000,000; the largest part is ledger \([\d,]+ in 400 items\)\. Nothing was changed: cite long material as path:lines/) });
    expect(refusal?.legalMoves).toEqual(['delib_judge']);
    expect(JSON.stringify(state).length).toBeLessThanOrEqual(STATE_LIMIT_CHARS);
    // What is already held stays usable: a small move is still accepted.
    expect(applyMove(state, 'judge', { points: [{ id: 'P1.1', verdict: 'SKEPTICAL', flaw: 'untested' }] }, ctx).ok).toBe(true);
  });
});
