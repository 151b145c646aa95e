import { mkdtemp, open, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { createDocumentStore } from '../state/document-store.js';

const BenchDoc = z.object({ n: z.number().int(), notes: z.array(z.string()) });
type BenchDoc = z.infer<typeof BenchDoc>;

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
const round = (value: number): number => Math.round(value * 1000) / 1000;

async function timeEach(count: number, step: (i: number) => Promise<unknown>) {
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await step(i);
    samples.push(performance.now() - t0);
  }
  const totalMs = performance.now() - started;
  samples.sort((a, b) => a - b);
  return { perSecond: round((count / totalMs) * 1000), p50: round(percentile(samples, 0.5)), p99: round(percentile(samples, 0.99)) };
}

/**
 * Durable updates through the document store (lock, read, validate, apply, temp+fdatasync+rename+dir fsync),
 * the same with an audit record, a plain read, and two baselines in the same folder: a bare
 * fs.writeFile (not durable) and the atomic write alone without lock or validation.
 */
export async function benchStore(iterations = 300): Promise<Record<string, number>> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-bench-store-'));
  try {
    const store = createDocumentStore({ dir, schema: BenchDoc, currentVersion: 1 });
    // a realistic deliberation-sized document (~20 KB)
    const notes = Array.from({ length: 200 }, (_, i) => `ledger entry ${i}: ${'claim text '.repeat(8)}`);
    await store.create('bench', { n: 0, notes });
    const apply = (doc: BenchDoc) => ({ value: { ...doc, n: doc.n + 1 }, result: null });
    for (let i = 0; i < 20; i++) await store.update('bench', apply); // warm up

    const update = await timeEach(iterations, () => store.update('bench', apply));
    const audited = await timeEach(iterations, () => store.update('bench', apply, { audit: { type: 'move' } }));
    const read = await timeEach(iterations, () => store.read('bench'));
    const refused = await timeEach(iterations, () => store.update('bench', () => ({ refuse: 'no' })));

    const sample = JSON.stringify({ schemaVersion: 1, revision: 1, updatedAt: new Date().toISOString(), value: { n: 0, notes } }, null, 2);
    const plain = await timeEach(iterations, (i) => writeFile(join(dir, 'plain.json'), sample + i));
    const atomicOnly = await timeEach(iterations, async (i) => {
      const temp = join(dir, `.atomic.${i}.tmp`);
      const handle = await open(temp, 'wx');
      await handle.writeFile(sample);
      await handle.datasync();
      await handle.close();
      await rename(temp, join(dir, 'atomic.json'));
      const folder = await open(dir, 'r');
      await folder.sync();
      await folder.close();
    });

    return {
      'store.update.perSecond': update.perSecond,
      'store.update.p50Ms': update.p50,
      'store.update.p99Ms': update.p99,
      'store.updateWithAudit.p50Ms': audited.p50,
      'store.updateWithAudit.p99Ms': audited.p99,
      'store.refusedUpdate.p50Ms': refused.p50,
      'store.read.p50Ms': read.p50,
      'baseline.atomicWriteOnly.p50Ms': atomicOnly.p50,
      'baseline.atomicWriteOnly.p99Ms': atomicOnly.p99,
      'baseline.plainWriteFile.perSecond': plain.perSecond,
      'baseline.plainWriteFile.p50Ms': plain.p50,
      'baseline.plainWriteFile.p99Ms': plain.p99,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
