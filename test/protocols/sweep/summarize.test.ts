import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expandSweep, readRunResult, runFiles, runSweep, summarizeSweep, writeSummaryFiles } from '../../../protocols/sweep/index.js';
import { debateMatrix, dialogicMatrix, runOfRequest, startDebateWorld, startDialogicWorld } from './worlds.js';

const work = await mkdtemp(join(tmpdir(), 'parley-sweep-summary-'));
afterAll(async () => rm(work, { recursive: true, force: true }));

const meanOf = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Each scripted reply reports 10 prompt and 5 completion tokens (the scripted server's default). */
const PROMPT = 10;
const COMPLETION = 5;

describe('sweep summaries and spend', () => {
  it('dialogic: survival by pairing x anonymisation, tokens per run, and the price table override', async () => {
    const chat = await startDialogicWorld();
    try {
      // a1 is priced by the sweep file, a2 by both (the override wins), b1 by the override only; b2 has no price, and costs 0 as a local server.
      const matrix = dialogicMatrix(chat, { prices: { a1: { input: 1, output: 2 }, a2: { input: 100, output: 100 } } });
      const dir = join(work, 'dialogic');
      const report = await runSweep(matrix, { outDir: dir, concurrency: 4, prices: { a2: { input: 3, cachedInput: 1, output: 4 }, b1: { input: 5, output: 6 } } });
      expect(report.failed).toEqual([]);
      const plans = expandSweep(matrix);
      const runOf = runOfRequest(plans);

      // Tokens and cost per run, from the requests the server saw.
      let sweepTokens = 0;
      for (const plan of plans) {
        const requests = chat.requests.filter((req) => runOf(req) === plan.id);
        const result = await readRunResult(dir, plan.id);
        expect(result?.usage.inputTokens).toBe(requests.length * PROMPT);
        expect(result?.usage.outputTokens).toBe(requests.length * COMPLETION);
        sweepTokens += requests.length * (PROMPT + COMPLETION);
        const calls = (model: string) => requests.filter((req) => req.model === model).length;
        if (plan.params.pairing === 'p1') {
          const expected = (calls('a1') * (PROMPT * 1 + COMPLETION * 2) + calls('b1') * (PROMPT * 5 + COMPLETION * 6)) / 1e6;
          expect(result?.costUsd).toBeCloseTo(expected, 12);
        } else {
          expect(result?.costUsd).toBeCloseTo((calls('a2') * (PROMPT * 3 + COMPLETION * 4)) / 1e6, 12);
          const b2 = Object.entries(result?.byBackend ?? {}).find(([spec]) => spec.endsWith('#b2'))?.[1];
          expect(b2?.costUsd).toBe(0);
        }
      }
      expect(report.totals.usage.inputTokens + report.totals.usage.outputTokens).toBe(sweepTokens);
      expect(report.totals.costUsd).not.toBeNull();

      // Survival computed here from the run files themselves.
      const summary = await summarizeSweep(dir, { by: ['pairing', 'anonymise'] });
      expect(summary.rows).toHaveLength(4);
      for (const row of summary.rows) {
        const members = plans.filter((plan) => plan.params.pairing === row.group.pairing && plan.params.anonymise === row.group.anonymise);
        const survival: number[] = [];
        for (const plan of members) {
          const run = JSON.parse(await readFile(runFiles(dir, plan.id).output, 'utf8')) as { submitted_terms: unknown[]; dropped_terms: unknown[] };
          survival.push(run.submitted_terms.length / (run.submitted_terms.length + run.dropped_terms.length));
        }
        expect(row.runs).toBe(2);
        expect(row.means.survival_rate).toBeCloseTo(meanOf(survival), 3);
      }
      // p1 keeps more than p2 by construction of the scripted terms.
      const survivalOf = (pairing: string) => summary.rows.find((row) => row.group.pairing === pairing && row.group.anonymise === 'true')?.means.survival_rate;
      expect(survivalOf('p1')).toBeCloseTo(6 / 8, 3);
      expect(survivalOf('p2')).toBeCloseTo(3 / 8, 3);

      const byPairing = await summarizeSweep(dir, { by: ['pairing'] });
      expect(byPairing.rows.map((row) => [row.group.pairing, row.runs])).toEqual([
        ['p1', 4],
        ['p2', 4],
      ]);
      const files = await writeSummaryFiles(dir, summary);
      const csv = (await readFile(files.csv, 'utf8')).trim().split('\n');
      // The mean columns come first as they always did; each measure's n, sd and interval follow.
      const spread = summary.measures.flatMap((m) => [`${m}_n`, `${m}_sd`, `${m}_ci95_low`, `${m}_ci95_high`]);
      expect(csv[0]).toBe(['pairing', 'anonymise', 'runs', ...summary.measures, ...spread].join(','));
      expect(csv).toHaveLength(5);
      expect(csv[1]).toMatch(/^p1,true,2,0\.75,8,6,2,/);
      // Both repetitions of a cell run the same script: no spread, the interval collapses on the mean.
      const survivalSpread = csv[0]!.split(',').indexOf('survival_rate_n');
      expect(csv[1]!.split(',').slice(survivalSpread, survivalSpread + 4)).toEqual(['2', '0', '0.75', '0.75']);
      expect(summary.rows[0]!.stats.survival_rate).toEqual({ n: 2, missing: 0, mean: 0.75, sd: 0, ci95: [0.75, 0.75] });
      const markdown = await readFile(files.markdown, 'utf8');
      expect(markdown.split('\n')[0]).toBe(`| ${['pairing', 'anonymise', 'runs', ...summary.measures].join(' | ')} |`);
      expect(markdown).toContain('| p2 | false | 2 | 0.375 |');
    } finally {
      await chat.close();
    }
  });

  it('debate: JS collapse by N x PID on/off', async () => {
    const chat = await startDebateWorld();
    try {
      const dir = join(work, 'debate');
      const report = await runSweep(debateMatrix(chat), { outDir: dir, concurrency: 4 });
      expect(report.failed).toEqual([]);
      const summary = await summarizeSweep(dir);
      expect(summary.by).toEqual(['agents', 'pid']);
      // By hand: round 1 yes/no (N=2) or yes/no/no (N=3), round 3 everyone yes.
      const h = (p: number[]) => -p.filter((x) => x > 0).reduce((sum, x) => sum + x * Math.log2(x), 0);
      const js = (dists: number[][]) => h(dists[0]!.map((_, i) => meanOf(dists.map((d) => d[i]!)))) - meanOf(dists.map(h));
      const jsFirst = { n2: js([[1, 0], [0, 1]]), n3: js([[1, 0], [0, 1], [0, 1]]) };
      for (const row of summary.rows) {
        expect(row.runs).toBe(1);
        expect(row.means.js_first).toBeCloseTo(jsFirst[row.group.agents as 'n2' | 'n3'], 5);
        expect(row.means.js_final).toBeCloseTo(0, 6);
        expect(row.means.js_collapse_ratio).toBeCloseTo(0, 6);
        expect(row.means.rounds_run).toBe(3);
        const transcript = JSON.parse(await readFile(runFiles(dir, report.manifest.runs.find((plan) => plan.params.agents === row.group.agents && plan.params.pid === row.group.pid)!.id).output, 'utf8'));
        expect(transcript.rounds.every((round: { pid?: unknown }) => (row.group.pid === 'on') === (round.pid !== undefined))).toBe(true);
      }
    } finally {
      await chat.close();
    }
  });
});
