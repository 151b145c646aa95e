import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** 200 facts of ~10,000 characters: every field within its own limit, 2 MB in all. */
const bigLedger = (round: number) =>
  Array.from({ length: 200 }, (_, k) => ({ action: 'add', text: `fact ${round}-${k} ${'f'.repeat(1_980)}`, tag: 'user', reference: 'r'.repeat(7_990) }));

describe('a deliberation has a size limit, enforced where every move is applied', () => {
  it('a judgment that would take the stored state over it is refused with the limit, and the state file is left as it was', { timeout: 60_000 }, async () => {
    harness = await startHarness();
    const { deliberationId } = await harness.ok('delib_start', { question: 'Ship it?', consult: false });
    await harness.ok('delib_consult', { deliberationId, reply: '1. A point. INFERENCE' });
    await harness.ok('delib_judge', { deliberationId, ledger: bigLedger(0) });
    const path = harness.deps.deliberations.store.pathFor(deliberationId);
    const before = await readFile(path, 'utf8');

    const refusal = await harness.refused('delib_judge', { deliberationId, ledger: bigLedger(1) });
    expect(refusal).toMatch(/deliberation-full/);
    expect(refusal).toMatch(/over its limit of 4,000,000; the largest part is ledger/);
    expect(await readFile(path, 'utf8')).toBe(before);
    // The refused 2 MB input is kept in the audit as its size and hash: repeating it does not grow the log by megabytes.
    const auditPath = harness.deps.deliberations.store.auditLogPath(deliberationId);
    const auditBefore = (await readFile(auditPath, 'utf8')).length;
    await harness.refused('delib_judge', { deliberationId, ledger: bigLedger(2) });
    const lines = (await readFile(auditPath, 'utf8')).trimEnd().split('\n');
    expect(lines.join('\n').length - auditBefore).toBeLessThan(4_000);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: 'move', move: 'judge', changed: false, input: { omitted: expect.stringMatching(/changed nothing/), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    // What is held stays usable.
    await harness.ok('delib_judge', { deliberationId, points: [{ id: 'P1.1', verdict: 'SKEPTICAL', flaw: 'untested' }] });
  });
});
