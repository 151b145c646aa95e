import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeOpenRigs, startConsultRig } from './rig.js';

afterEach(closeOpenRigs);

/** Thirty times what a reply may hold (100,000 characters). */
const HUGE = `1. INFERENCE: ${'pool '.repeat(600_000)}`;
const NORMAL = '1. INFERENCE: Use a bounded connection pool.';

describe('a reply far over the limit (stdio, real codex)', () => {
  it('is refused and audited as its size, SHA-256 and first characters, not whole, however often it comes', { timeout: 180_000 }, async () => {
    let served = 0;
    const r = await startConsultRig(() => ({ text: served++ < 2 ? HUGE : NORMAL }));
    const started = await r.ok('delib_start', { question: 'How big should the DB pool be?', consult: false });
    const id: string = started.deliberationId;
    const auditPath = join(r.stateDir, 'deliberations', `${id}.audit.jsonl`);
    const before = (await stat(auditPath)).size;

    for (let attempt = 0; attempt < 2; attempt++) {
      expect(await r.refused('delib_consult', { deliberationId: id, waitSeconds: 55 })).toMatch(/oversized-input.*text is 3,000,014 characters \(at most 100,000\)/);
    }
    // Two 3 MB replies left a few kilobytes each: the prompts, the metadata and the kept excerpts.
    const grown = (await stat(auditPath)).size - before;
    expect(grown).toBeLessThan(2 * 20_000);
    const audit = await r.audit(id);
    const replies = audit.filter((a) => a.type === 'consult-reply');
    expect(replies).toHaveLength(2);
    const sha256 = createHash('sha256').update(HUGE).digest('hex');
    for (const reply of replies) {
      expect(reply.reply).toEqual({ omitted: expect.stringMatching(/^an input of 3000014 characters that changed nothing/), chars: HUGE.length, sha256, excerpt: HUGE.slice(0, 500) });
    }
    const refusedMoves = audit.filter((a) => a.type === 'move' && a.move === 'reply_record');
    expect(refusedMoves).toHaveLength(2);
    for (const move of refusedMoves) expect(move).toMatchObject({ changed: false, input: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/), excerpt: expect.stringContaining('1. INFERENCE: pool pool') } });

    // Nothing stored was lost: the next reply is taken as usual, and kept whole.
    const asked = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 55 });
    expect(asked.consult.reply.points).toEqual([{ id: 'P1.1', text: 'INFERENCE: Use a bounded connection pool.' }]);
    expect((await r.audit(id)).filter((a) => a.type === 'consult-reply').at(-1)?.reply).toBe(NORMAL);
  });
});
