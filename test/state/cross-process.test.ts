import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDocumentStore } from '../../state/document-store.js';
import { parseEnvelope } from '../../state/envelope.js';
import { makeTempDir } from './helpers.js';
import { bundleWorker, exited, linesSeen, spawnWorker } from './processes.js';

const Doc = z.object({ count: z.number().int(), writers: z.array(z.string()), payload: z.string().optional() });
const payloadFor = (count: number): string => 'x'.repeat(20_000 + (count % 7) * 3_000) + `#${count}`;

let dir: string;
let cleanup: () => Promise<void>;
let bundle: string;
let removeBundle: () => Promise<void>;
beforeAll(async () => {
  const bundleDir = await makeTempDir();
  removeBundle = bundleDir.cleanup;
  bundle = await bundleWorker(bundleDir.dir);
});
afterAll(() => removeBundle());
beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
afterEach(() => cleanup());

describe('across real processes', () => {
  it('N processes x k updates lose no update', async () => {
    const processes = 6;
    const k = 40;
    const store = createDocumentStore({ dir, schema: Doc, currentVersion: 1 });
    await store.create('shared', { count: 0, writers: [] });
    const workers = Array.from({ length: processes }, () => spawnWorker(bundle, [dir, 'shared', 'count', String(k)]));
    const results = await Promise.all(workers.map((worker) => exited(worker)));
    for (const [index, result] of results.entries()) {
      expect(result, workers[index]?.stderrText()).toEqual({ code: 0, signal: null });
    }
    const final = await store.read('shared');
    expect(final.value.count).toBe(processes * k);
    expect(final.revision).toBe(processes * k + 1);
    expect(new Set(final.value.writers).size).toBe(processes * k);
    for (const worker of workers) {
      const mine = final.value.writers.filter((entry) => entry.startsWith(`${worker.pid}:`));
      expect(mine).toEqual(Array.from({ length: k }, (_, i) => `${worker.pid}:${i}`));
    }
  }, 60_000);

  it('kill -9 during writes: the file always parses and equals a committed revision', async () => {
    const store = createDocumentStore({ dir, schema: Doc, currentVersion: 1 });
    await store.create('crashy', { count: 0, writers: [] });
    const path = join(dir, 'crashy.json');
    let lastAcked = 1;
    const rounds = 20;
    for (let round = 0; round < rounds; round++) {
      // Two writers contend, so one is often killed holding the lock: the next round must break it at once.
      const writers = [spawnWorker(bundle, [dir, 'crashy', 'crash']), spawnWorker(bundle, [dir, 'crashy', 'crash'])];
      await Promise.race(writers.map((writer) => linesSeen(writer, 1 + (round % 5))));
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
      for (const writer of writers) writer.kill('SIGKILL');
      await Promise.all(writers.map((writer) => exited(writer)));
      const acked = writers.flatMap((writer) => writer.stdoutText().split('\n').filter(Boolean).map(Number));
      lastAcked = Math.max(lastAcked, ...acked);

      const parsed = parseEnvelope(await readFile(path, 'utf8'));
      expect(parsed.ok, `round ${round}`).toBe(true);
      if (!parsed.ok) return;
      const { revision, value } = parsed.envelope;
      const doc = Doc.parse(value);
      // committed revision r holds count r-1 and its exact payload: no torn or mixed content
      expect(doc.count).toBe(revision - 1);
      expect(doc.payload).toBe(payloadFor(doc.count));
      // every acknowledged commit is there; at most one more was in flight per writer
      expect(revision).toBeGreaterThanOrEqual(lastAcked);
      expect(revision).toBeLessThanOrEqual(lastAcked + writers.length);
      lastAcked = revision;
    }
    // and the store is still fully usable afterwards: stale locks broken, and the next write sweeps
    // what the killed writers left (temp files, lock leftovers)
    const after = await store.update('crashy', (doc) => ({ value: { ...doc, count: doc.count + 1, payload: payloadFor(doc.count + 1) }, result: null }));
    expect(after.revision).toBe(lastAcked + 1);
    expect(await readdir(dir)).toEqual(['crashy.json']);
    expect(await store.list()).toEqual([expect.objectContaining({ id: 'crashy', revision: lastAcked + 1 })]);
  }, 120_000);

  it("a dead holder's lock and 3 to 8 writers starting at once: no update lost, no stale file left", async () => {
    for (const count of [3, 4, 6, 8]) {
      const setDir = join(dir, `w${count}`);
      await mkdir(setDir);
      const store = createDocumentStore({ dir: setDir, schema: Doc, currentVersion: 1 });
      await store.create('shared', { count: 0, writers: [] });
      // A holder killed with -9 leaves its lock exactly as the lock protocol wrote it; a copy is put back before each round.
      const holder = spawnWorker(bundle, [setDir, 'shared', 'hold']);
      await linesSeen(holder, 1);
      holder.kill('SIGKILL');
      await exited(holder);
      const lock = join(setDir, 'shared.json.lock');
      const deadLock = join(dir, `dead-lock-${count}`);
      await cp(lock, deadLock, { recursive: true });
      await rm(lock, { recursive: true });
      const k = 3;
      const writers = Array.from({ length: count }, () => spawnWorker(bundle, [setDir, 'shared', 'rounds', String(k)]));
      try {
        for (let round = 0; round < 10; round++) {
          await cp(deadLock, lock, { recursive: true });
          await writeFile(join(setDir, `go-${round}`), '');
          await Promise.all(writers.map((writer) => linesSeen(writer, round + 1)));
          const final = await store.read('shared');
          expect(final.value.count, `round ${round} with ${count} writers`).toBe(count * k * (round + 1));
          expect(final.revision).toBe(count * k * (round + 1) + 1);
        }
      } finally {
        for (const writer of writers) writer.kill('SIGKILL');
        await Promise.all(writers.map((writer) => exited(writer)));
      }
      await store.update('shared', (doc) => ({ value: { ...doc, count: doc.count + 1 }, result: null }));
      expect((await readdir(setDir)).filter((name) => !name.startsWith('go-'))).toEqual(['shared.json']);
    }
  }, 120_000);
});
