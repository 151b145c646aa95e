import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli } from '../../cli/cli-capture.js';
import { registerSweepCommand } from '../../../cli/sweep.js';
import { expandSweep, readRunResult } from '../../../protocols/sweep/index.js';
import { dialogicMatrix, startDebateWorld, startDialogicWorld, writeMatrixFile } from './worlds.js';

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

  it('takes agents written as plain model specs, as the README writes them', async () => {
    const chat = await startDebateWorld();
    try {
      const spec = (model: string) => `openai-compatible:${chat.baseUrl}#${model}`;
      const path = join(work, 'plain-agents.yaml');
      const matrix = { protocol: 'debate', base: { question: 'Ship today?', options: ['yes', 'no'], rounds: 1 }, matrix: { agents: [[spec('d1'), spec('d2')]] } };
      await writeFile(path, stringify(matrix));
      const out = join(work, 'plain-agents');
      const run = await parley(['sweep', path, '--out', out, '--progress', 'plain']);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/ran 1, already finished 0, failed 0/);
      const [plan] = expandSweep(matrix as never);
      const transcript = JSON.parse(await readFile(join(out, `${plan!.id}.json`), 'utf8'));
      expect(transcript.agents.map((agent: { model: string }) => agent.model)).toEqual([spec('d1'), spec('d2')]);
    } finally {
      await chat.close();
    }
  });

  it('refuses a sweep whose configurations no run can start with before anything is made, naming each problem', async () => {
    const path = join(work, 'bad-config.yaml');
    const agents = [[{ modle: 'ollama:x' }, { modle: 'ollama:y' }], ['ollama:x']];
    await writeFile(path, stringify({ protocol: 'debate', base: { question: 'Ship today?' }, matrix: { agents, rounds: [0, 2] } }));
    const out = join(work, 'bad-config');
    const run = await parley(['sweep', path, '--out', out]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(`parley sweep: ${path} gives configurations no run can start with, so nothing was run or written; correct them:`);
    // The misspelt key is named first, with the key it is nearest to (issue 28, item 1).
    expect(run.stderr).toMatch(
      / {2}the runs with agents=n2, rounds=0: invalid debate config: agents\.0: unknown key "modle" \(did you mean "model"\?\); the keys accepted here are id, model, role, persona; agents\.1: .*; rounds: Too small.*; agents\.0\.model: required, and not given \(expected string\)/,
    );
    expect(run.stderr).toMatch(/ {2}the runs with agents=n1, rounds=2: invalid debate config: agents: Too small: expected array to have >=2 items/);
    expect(run.stderr).not.toMatch(/"code"|"path"/);
    expect(existsSync(out)).toBe(false);
  });

  it('says what is wrong with bad input', async () => {
    expect((await parley(['sweep', join(work, 'missing.yaml'), '--out', join(work, 'x')])).stderr).toBe(`parley sweep: ${join(work, 'missing.yaml')} does not exist: check the name, or give the file's full path\n`);
    expect((await parley(['sweep', 'summarize', work])).stderr).toMatch(/not a sweep folder/);
    await expect(parley(['sweep', 'm.yaml', '--out', 'x', '--shard', '3/2'])).rejects.toThrow(/invalid shard/);
  });
});
