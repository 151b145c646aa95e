import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expandSweep, mergeSweeps, readRunResult, runFiles, runSweep } from '../../../protocols/sweep/index.js';
import { debateMatrix, dialogicMatrix, startDebateWorld, startDialogicWorld } from './worlds.js';
import { filesDigest } from '../folder-digest.js';

const work = await mkdtemp(join(tmpdir(), 'parley-sweep-shards-'));
afterAll(async () => rm(work, { recursive: true, force: true }));

/** A run's output with the wall-clock fields blanked. */
async function outputOf(dir: string, id: string): Promise<unknown> {
  const text = await readFile(runFiles(dir, id).output, 'utf8');
  return JSON.parse(text.replace(/"(startedAt|finishedAt)": "[^"]*"/g, '"$1": "-"').replace(/"latencyMs": \d+(\.\d+)?/g, '"latencyMs": 0'));
}

describe('sweep shards', () => {
  for (const [protocol, start, matrixOf] of [
    ['dialogic', startDialogicWorld, dialogicMatrix],
    ['debate', startDebateWorld, debateMatrix],
  ] as const) {
    it(`${protocol}: shards 1/2 and 2/2 merged equal the unsharded sweep`, async () => {
      const chat = await start();
      try {
        const matrix = matrixOf(chat);
        const plans = expandSweep(matrix);
        const whole = join(work, `${protocol}-whole`);
        const shardDirs = [join(work, `${protocol}-s1`), join(work, `${protocol}-s2`)];
        const full = await runSweep(matrix, { outDir: whole, concurrency: 3 });
        expect(full.failed).toEqual([]);
        expect(full.ran.sort()).toEqual(plans.map((plan) => plan.id).sort());
        const shard1 = await runSweep(matrix, { outDir: shardDirs[0]!, concurrency: 3, shard: { index: 1, count: 2 } });
        const shard2 = await runSweep(matrix, { outDir: shardDirs[1]!, concurrency: 3, shard: { index: 2, count: 2 } });
        // Disjoint halves that cover the sweep.
        expect(shard1.ran.length + shard2.ran.length).toBe(plans.length);
        expect(shard1.ran.filter((id) => shard2.ran.includes(id))).toEqual([]);
        expect(Math.abs(shard1.ran.length - shard2.ran.length)).toBeLessThanOrEqual(1);

        const merged = await mergeSweeps(shardDirs, join(work, `${protocol}-merged`));
        expect(merged.finished).toBe(plans.length);
        expect(merged.unfinished).toEqual([]);
        expect(merged.missingShards).toEqual([]);
        const files = (dir: string) => readdir(dir).then((names) => names.filter((name) => name.endsWith('.json') && name.startsWith('d')).sort());
        expect(await files(merged.dir)).toEqual(await files(whole));
        for (const plan of plans) {
          expect(await outputOf(merged.dir, plan.id)).toEqual(await outputOf(whole, plan.id));
          const [a, b] = [await readRunResult(merged.dir, plan.id), await readRunResult(whole, plan.id)];
          expect(a?.status).toBe('ok');
          expect(a?.usage).toEqual(b?.usage);
        }
        expect(merged.manifest.runs.map((plan) => plan.id)).toEqual(full.manifest.runs.map((plan) => plan.id));
        expect(JSON.parse(await readFile(join(merged.dir, 'totals.json'), 'utf8'))).toEqual(JSON.parse(await readFile(join(whole, 'totals.json'), 'utf8')));
      } finally {
        await chat.close();
      }
    });
  }

  it('refuses to merge shards of different sweeps', async () => {
    const chat = await startDialogicWorld();
    try {
      const a = join(work, 'other-a');
      const b = join(work, 'other-b');
      await runSweep(dialogicMatrix(chat, { repetitions: 1 }), { outDir: a, concurrency: 2, shard: { index: 1, count: 4 } });
      await runSweep(dialogicMatrix(chat, { repetitions: 2 }), { outDir: b, concurrency: 2, shard: { index: 2, count: 4 } });
      await expect(mergeSweeps([a, b], join(work, 'other-merged'))).rejects.toThrow(/another sweep/);
      const before = await filesDigest(a);
      const requests = chat.requests.length;
      await expect(runSweep(dialogicMatrix(chat, { repetitions: 2 }), { outDir: a, concurrency: 2 })).rejects.toThrow(
        /holds another sweep \(hash \w+, this one \w+: repetitions: 1 -> 2\); nothing was run or changed\. To start a fresh sweep, give another --out folder, or remove that folder first/,
      );
      const otherBase = { base: { maxCycles: 3, retryBaseMs: 1, temperature: 0.9 }, repetitions: 1 };
      await expect(runSweep(dialogicMatrix(chat, otherBase), { outDir: a, concurrency: 2 })).rejects.toThrow(/: base\.temperature: 0\.5 -> 0\.9\)/);
      expect(chat.requests.length).toBe(requests);
      expect(await filesDigest(a)).toEqual(before);
    } finally {
      await chat.close();
    }
  });
});
