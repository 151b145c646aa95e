import { describe, expect, it } from 'vitest';
import { applyMove, startDeliberation } from '../../../protocols/argumentation/index.js';
import { LIMITS } from '../../../protocols/argumentation/core/input-limits.js';

const ctx = { now: '2026-01-01T00:00:00.000Z' };
const started = () => {
  const r = startDeliberation({ question: 'Queue?', mode: 'minimal' }, { ...ctx, id: 'd' });
  if (!r.ok) throw new Error('start refused');
  return r.state;
};

describe('input limits: one huge string never slows every later write', () => {
  it('refuses an oversized reply, question, material or judgment field with the field and the limit', () => {
    const big = (n: number) => 'x'.repeat(n + 1);
    const reply = applyMove(started(), 'reply_record', { text: big(LIMITS.reply) }, ctx);
    expect(reply.ok ? 'accepted' : reply.refusal).toMatchObject({ rule: 'oversized-input', message: expect.stringMatching(/text is 100,001 characters \(at most 100,000\)/) });
    const start = startDeliberation({ question: big(LIMITS.question) }, { ...ctx, id: 'd' });
    expect(start.ok ? 'accepted' : start.refusal.rule).toBe('oversized-input');
    expect(startDeliberation({ question: 'Q?', material: big(LIMITS.material) }, { ...ctx, id: 'd' }).ok).toBe(false);
    const judged = applyMove(started(), 'judge', { points: [{ id: 'P1.1', verdict: 'SKEPTICAL', flaw: big(LIMITS.text) }] }, ctx);
    expect(judged.ok ? 'accepted' : judged.refusal.message).toMatch(/points\[0\]\.flaw is 8,001 characters/);
    const many = applyMove(started(), 'judge', { points: Array.from({ length: LIMITS.items + 1 }, (_, i) => ({ id: `P1.${i}` })) }, ctx);
    expect(many.ok ? 'accepted' : many.refusal.message).toMatch(/points has 201 items/);
  });

  it('accepts what fits: a long but reasonable reply and material', () => {
    expect(applyMove(started(), 'reply_record', { text: `1. ${'word '.repeat(10_000)} INFERENCE` }, ctx).ok).toBe(true);
    expect(startDeliberation({ question: 'Q?', material: 'm'.repeat(LIMITS.material) }, { ...ctx, id: 'd' }).ok).toBe(true);
  });
});
