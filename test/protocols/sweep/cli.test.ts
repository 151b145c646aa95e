import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/cli-capture.js';
import { registerSweepCommand } from '../../../cli/sweep.js';
import { readRunResult } from '../../../protocols/sweep/index.js';
import { dialogicMatrix, startDialogicWorld, writeMatrixFile } from './worlds.js';

const work = await mkdtemp(join(tmpdir(), 'parley-sweep-cli-'));
afterAll(async () => rm(work, { recursive: true, force: true }));

const parley = (args: string[]) => runCli(registerSweepCommand, args);

describe('parley sweep CLI', () => {
  it('runs shards with a price file, merges them and summarizes the merged folder', async () => {
    const chat = await startDialogicWorld();
    try {
      const { path, plans } = await writeMatrixFile(dialogicMatrix(chat, { repetitions: 1 }));
      const prices = join(work, 'prices.yaml');
      await writeFile(prices, 'a1: { input: 1, output: 1 }\nb1: { input: 1, output: 1 }\na2: { input: 1, output: 1 }\nb2: { input: 1, output: 1 }\n');
      const shards = ['1/2', '2/2'].map((shard, i) => ({ shard, dir: join(work, `s${i + 1}`) }));
      for (const { shard, dir } of shards) {
        const run = await parley(['sweep', path, '--out', dir, '--shard', shard, '--prices', prices, '--per-backend', '2', '--progress', 'plain']);
        expect(run.exitCode, run.stderr).toBe(0);
        expect(run.stdout).toMatch(/ran 2, already finished 0, failed 0; .* \$0\.000\d+/);
        expect(run.stderr).toMatch(/sweep: 2 run\(s\) in this shard of 4/);
      }
      const again = await parley(['sweep', path, '--out', shards[0]!.dir, '--shard', '1/2', '--progress', 'plain']);
      expect(again.stdout).toMatch(/ran 0, already finished 2, failed 0/);

      const merged = join(work, 'merged');
      const merge = await parley(['sweep', 'merge', shards[0]!.dir, shards[1]!.dir, '--out', merged]);
      expect(merge.stdout).toMatch(/4\/4 runs finished/);
      for (const plan of plans) expect((await readRunResult(merged, plan.id))?.status).toBe('ok');

      const summary = await parley(['sweep', 'summarize', merged, '--by', 'pairing', '--format', 'csv']);
      const lines = summary.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^pairing,runs,survival_rate,/);
      expect(lines.slice(1).map((line) => line.split(',').slice(0, 3).join(','))).toEqual(['p1,2,0.75', 'p2,2,0.375']);
      expect(await readFile(join(merged, 'summary.md'), 'utf8')).toMatch(/^\| pairing \| runs \| survival_rate/);
      expect((await readFile(join(merged, 'runs.csv'), 'utf8')).trim().split('\n')).toHaveLength(5);
    } finally {
      await chat.close();
    }
  });

  it('says what is wrong with bad input', async () => {
    expect((await parley(['sweep', join(work, 'missing.yaml'), '--out', join(work, 'x')])).stderr).toMatch(/parley sweep: .*no such file/i);
    expect((await parley(['sweep', 'summarize', work])).stderr).toMatch(/not a sweep folder/);
    await expect(parley(['sweep', 'm.yaml', '--out', 'x', '--shard', '3/2'])).rejects.toThrow(/invalid shard/);
  });
});
