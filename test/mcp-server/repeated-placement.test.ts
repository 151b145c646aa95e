import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const agreeValue = { claimType: 'value', evidenceType: 'n/a', reason: 'one small VM favours the simpler daemon' };

/** Issue 21, item 1: a judgment that repeats a placement is refused, stored as no change and audited as none. */
describe('a repeated placement through delib_judge', () => {
  it('is refused already-placed; the revision stays and the audit says nothing changed', async () => {
    harness = await startHarness();
    const { deliberationId } = await harness.ok('delib_start', { question: 'Redis or Memcached for the session cache?', consult: false });
    await harness.ok('delib_consult', { deliberationId, reply: '1. Memcached is simpler to run on one small VM. INFERENCE' });
    await harness.ok('delib_judge', { deliberationId, points: [{ id: 'P1.1', verdict: 'AGREE', ...agreeValue }], consult: false });
    const store = harness.deps.deliberations.store;
    const before = await readFile(store.pathFor(deliberationId), 'utf8');

    const again = await harness.ok('delib_judge', { deliberationId, points: [{ id: 'P1.1', bucket: 'agreed', ...agreeValue }], consult: false });
    expect(again.effects).toEqual([]);
    expect(again.refused).toEqual([expect.objectContaining({ item: 'points[0]', ref: 'P1.1', rule: 'already-placed', legal: ['verdict', 'bucket'] })]);
    expect(await readFile(store.pathFor(deliberationId), 'utf8')).toBe(before);
    const audit = (await readFile(store.auditLogPath(deliberationId), 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    expect(audit.at(-1)).toMatchObject({ move: 'judge', changed: false, result: { ok: true, refused: [{ rule: 'already-placed' }] } });
    expect(audit.at(-1).revision).toBe(audit.at(-2).revision);
  });
});
