import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe as group, expect, it } from 'vitest';
import { runCli } from '../../cli/cli-capture.js';
import { registerSweepCommand } from '../../../cli/sweep.js';
import {
  bootstrapMeanCi,
  compareLevels,
  describe,
  describeDifferences,
  differencesOf,
  expandSweep,
  findAnonymisation,
  parseComparison,
  parseSweepMatrix,
  seedOf,
  signFlipP,
  type RunRow,
} from '../../../protocols/sweep/index.js';
import { csvField, toCsv } from '../../../protocols/csv.js';
import { SweepSummaryFile } from '../../../schemas/sweep.js';
import { startScriptedChat, type ChatRequestRecord } from '../../doubles/scripted-chat.js';
import { roundOf } from '../debate/scripts.js';
import { writeMatrixFile } from './worlds.js';

const work = await mkdtemp(join(tmpdir(), 'parley-sweep-stats-'));
afterAll(async () => rm(work, { recursive: true, force: true }));

/** Every one of the n^n equally likely resamples of `values`, as sorted means: the exact bootstrap distribution. */
function exactBootstrapMeans(values: number[]): number[] {
  const n = values.length;
  const means: number[] = [];
  for (let code = 0; code < n ** n; code += 1) {
    let rest = code;
    let sum = 0;
    for (let i = 0; i < n; i += 1) {
      sum += values[rest % n]!;
      rest = Math.floor(rest / n);
    }
    means.push(sum / n);
  }
  return means.sort((a, b) => a - b);
}

/** The p-quantile of a discrete distribution as its inverse CDF (a different rule from the code's interpolation). */
const inverseCdf = (sorted: number[], p: number) => sorted[Math.ceil(p * sorted.length) - 1]!;

/** Two-sided sign-flip p by enumerating the sign patterns as strings of + and -. */
function signFlipByHand(differences: number[]): number {
  const observed = Math.abs(differences.reduce((sum, d) => sum + d, 0));
  let patterns = [''];
  for (let i = 0; i < differences.length; i += 1) patterns = patterns.flatMap((pattern) => [`${pattern}+`, `${pattern}-`]);
  const reaching = patterns.filter((pattern) => Math.abs(differences.reduce((sum, d, i) => sum + (pattern[i] === '+' ? d : -d), 0)) >= observed - 1e-12);
  return reaching.length / patterns.length;
}

group('sweep statistics: worked examples', () => {
  it('n, mean and sample sd by hand; missing values are excluded and counted, never read as 0', () => {
    // Mean 40/8 = 5; squared deviations 9+1+1+1+0+0+4+16 = 32, so sd = sqrt(32/7).
    const stats = describe([2, 4, 4, 4, 5, 5, 7, 9], 'k');
    expect(stats).toMatchObject({ n: 8, missing: 0, mean: 5 });
    expect(stats.sd).toBeCloseTo(Math.sqrt(32 / 7), 12);
    // Read as 0 the mean would be 4/5 = 0.8; left out it is 2, and sd = sqrt(((1-2)^2 + (3-2)^2) / 1).
    const gappy = describe([1, null, 3, undefined, Number.NaN], 'k');
    expect(gappy).toMatchObject({ n: 2, missing: 3, mean: 2 });
    expect(gappy.sd).toBeCloseTo(Math.SQRT2, 12);
    expect(describe([null, null], 'k')).toEqual({ n: 0, missing: 2, mean: null, sd: null, ci95: null });
  });

  it('the interval collapses for one value and for constant data, and spans [min, max] for 1, 2, 3', () => {
    expect(describe([0.7], 'k')).toEqual({ n: 1, missing: 0, mean: 0.7, sd: null, ci95: [0.7, 0.7] });
    expect(bootstrapMeanCi([0.1, 0.1, 0.1], 'k')).toEqual([0.1, 0.1]);
    // Of the 27 resamples of 1, 2, 3, one has mean 1 and one mean 3: each 1/27 = 3.7% > 2.5% of the mass.
    const exact = exactBootstrapMeans([1, 2, 3]);
    expect(exact.filter((mean) => mean === 1)).toHaveLength(1);
    expect([inverseCdf(exact, 0.025), inverseCdf(exact, 0.975)]).toEqual([1, 3]);
    expect(bootstrapMeanCi([1, 2, 3], 'k')).toEqual([1, 3]);
  });

  it('the bootstrap interval agrees with the exact bootstrap distribution (all 6^6 resamples enumerated)', () => {
    const values = [0.3, 1.1, 2.6, 4.0, 7.5, 9.9];
    const exact = exactBootstrapMeans(values);
    const [low, high] = bootstrapMeanCi(values, JSON.stringify(['cell', 'x', 'm']))!;
    expect(low).toBeCloseTo(inverseCdf(exact, 0.025), 1);
    expect(high).toBeCloseTo(inverseCdf(exact, 0.975), 1);
    // A normal-theory interval (mean -/+ 1.96 sd / sqrt n) would start near 1.22: not what this computes.
    expect(Math.abs(low - 1.2225)).toBeGreaterThan(0.3);
    // Deterministic per key; another key is another stream.
    expect(bootstrapMeanCi(values, JSON.stringify(['cell', 'x', 'm']))).toEqual([low, high]);
    expect(bootstrapMeanCi(values, JSON.stringify(['cell', 'y', 'm']))).not.toEqual([low, high]);
  });

  it('seeds are FNV-1a 32-bit (published test vectors)', () => {
    expect(seedOf('')).toBe(0x811c9dc5);
    expect(seedOf('a')).toBe(0xe40c292c);
    expect(seedOf('foobar')).toBe(0xbf9cf968);
  });

  it('sign-flip p-values by hand for three pairs, and the Monte Carlo approximation above 16 pairs', () => {
    // 1, 2, 3: the 8 signed sums are 6, 4, 2, 0, 0, -2, -4, -6; |sum| >= 6 twice: p = 2/8.
    expect(signFlipP([1, 2, 3], 'k')).toEqual({ p: 0.25, method: 'exact' });
    // 1, 2, -4 (sum -1): the sums are -1, 7, -5, 3, -3, 5, -7, 1; all reach |-1|: p = 1.
    expect(signFlipP([1, 2, -4], 'k')).toEqual({ p: 1, method: 'exact' });
    expect(signFlipP([0, 0, 0], 'k')).toEqual({ p: 1, method: 'exact' });
    expect(signFlipP([], 'k')).toBeNull();
    expect(signFlipP([0.1, 0.2, 0.3, -0.05, 0.4], 'k')?.p).toBe(signFlipByHand([0.1, 0.2, 0.3, -0.05, 0.4]));

    const seventeen = [0.9, -0.4, 1.3, 0.2, -1.1, 0.8, 0.5, -0.3, 1.7, 0.1, -0.6, 0.4, -1.0, -0.2, 0.3, 0.7, -0.9];
    const exactP = signFlipByHand(seventeen);
    const approx = signFlipP(seventeen, 'k')!;
    expect(approx.method).toBe('monte-carlo');
    // 10,000 samples: standard error at most 0.005.
    expect(Math.abs(approx.p - exactP)).toBeLessThan(0.02);
  });

  it('paired differences: B - A, with a pair missing a value left out and counted', () => {
    const pairs = [
      { a: 1, b: 2 },
      { a: 2, b: 4 },
      { a: 3, b: 6 },
      { a: null, b: 5 },
    ];
    expect(differencesOf(pairs)).toEqual([1, 2, 3, null]);
    // Differences 1, 2, 3: mean 2, sd 1, interval [1, 3] (see above), p 0.25 by hand.
    expect(describeDifferences(differencesOf(pairs), 'k')).toEqual({ pairs: 3, missing: 1, meanDifference: 2, sd: 1, ci95: [1, 3], p: 0.25, pMethod: 'exact' });
  });

  it('pairs runs alike in every other parameter and the repetition; a run whose partner is missing stays unpaired', () => {
    const run = (x: string, y: string, repetition: number, m: number | null): RunRow => ({ id: `${x}-${y}-r${repetition}`, params: { x, y }, repetition, measures: { m } });
    const runs = [run('lo', 'u', 1, 1), run('hi', 'u', 1, 2), run('lo', 'u', 2, 2), run('hi', 'u', 2, 4), run('lo', 'v', 1, 3), run('hi', 'v', 1, 6), run('hi', 'v', 2, 9)];
    const plans = runs.map((r, index) => ({ id: r.id, index, protocol: 'debate' as const, repetition: r.repetition, params: r.params, config: {} }));
    const comparison = compareLevels(parseComparison('x=lo,hi'), plans, runs, ['x', 'y'], ['m']);
    expect(comparison).toMatchObject({ parameter: 'x', levels: ['lo', 'hi'], pairs: 3, unpaired: ['hi-v-r2'] });
    expect(comparison.overall.m).toMatchObject({ pairs: 3, meanDifference: 2, sd: 1, p: 0.25 });
    expect(comparison.cells.map((cell) => [cell.group, cell.pairs, cell.measures.m!.meanDifference])).toEqual([
      [{ y: 'u' }, 2, 1.5],
      [{ y: 'v' }, 1, 3],
    ]);
    expect(() => compareLevels(parseComparison('x=lo,mid'), plans, runs, ['x'], ['m'])).toThrow(/no level mid: its levels are lo, hi/);
    expect(() => parseComparison('x=lo')).toThrow(/<param>=<levelA>,<levelB>/);
  });

  it('finds the parameter that only toggles anonymisation, and not one that changes more', () => {
    const base = { question: 'Q?', agents: [{ model: 'openai:gpt-4.1' }, { model: 'openai:gpt-4o' }] };
    const plain = expandSweep({ protocol: 'debate', base, matrix: { rounds: [2, 3], anonymise: [true, false] } });
    expect(findAnonymisation(plain, ['rounds', 'anonymise'])).toEqual({ parameter: 'anonymise', anonymised: 'true', visible: 'false' });
    const labelled = expandSweep({ protocol: 'debate', base, matrix: { who: [{ label: 'hidden', set: { anonymise: true } }, { label: 'shown', set: { anonymise: false } }] } });
    expect(findAnonymisation(labelled, ['who'])).toEqual({ parameter: 'who', anonymised: 'hidden', visible: 'shown' });
    const mixed = expandSweep({ protocol: 'debate', base, matrix: { who: [{ label: 'hidden', set: { anonymise: true } }, { label: 'shown', set: { anonymise: false, rounds: 5 } }] } });
    expect(findAnonymisation(mixed, ['who'])).toBeNull();
  });

  it('one CSV writer with RFC 4180 quoting; a missing value is an empty field', () => {
    const fields = ['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\r', null, 0, -1.5, ['yes', 'no'], ['a,b', 1]] as const;
    expect(fields.map(csvField)).toEqual(['plain', '"a,b"', '"say ""hi"""', '"two\nlines"', '"cr\r"', '', '0', '-1.5', 'yes|no', '"a,b|1"']);
    expect(toCsv(['k', 'v'], [['a', 1], ['b,c', undefined]])).toBe('k,v\na,1\n"b,c",\n');
  });

  it('writes numbers without float noise: at most 6 decimals, integers whole', () => {
    expect([0.6750000000000002, 0.1 + 0.2, 2 / 3, -1 / 3, 1e-9, 123456789, 2 ** 53].map(csvField)).toEqual(['0.675', '0.3', '0.666667', '-0.333333', '0', '123456789', '9007199254740992']);
    expect(csvField([0.1 + 0.2, 'x'])).toBe('0.3|x');
  });
});

/**
 * d1 always answers yes. d2 answers no in round 1 and afterwards yes only when it can see d1's
 * name (identities visible): with identities it conforms, anonymised it holds out.
 */
function identitySensitive(req: ChatRequestRecord) {
  const seesD1 = req.messages.some((message) => /\bd1\b/.test(message.content));
  const answer = req.model === 'd1' || (roundOf(req) > 1 && seesD1) ? 'yes' : 'no';
  return { content: JSON.stringify({ answer, claims: [{ id: 'c1', text: `I hold ${answer}.` }] }) };
}

group('parley sweep summarize: spread, --compare and identity bias end to end', () => {
  it('on a one-parameter sweep, prints each comparison row and the identity-bias row once', async () => {
    const chat = await startScriptedChat(identitySensitive);
    try {
      const spec = (model: string) => `openai-compatible:${chat.baseUrl}#${model}`;
      const matrix = parseSweepMatrix({
        protocol: 'debate',
        base: { question: 'Ship today?', options: ['yes', 'no'], rounds: 2, agents: [spec('d1'), spec('d2')], stop: { onConvergence: false, onUnanimity: false } },
        matrix: { anonymise: [true, false] },
        repetitions: 2,
      });
      const { path } = await writeMatrixFile(matrix);
      const dir = join(work, 'one-parameter');
      const parley = (args: string[]) => runCli(registerSweepCommand, args);
      expect((await parley(['sweep', path, '--out', dir, '--progress', 'plain'])).exitCode).toBe(0);
      const out = await parley(['sweep', 'summarize', dir, '--compare', 'anonymise=true,false']);
      expect(out.exitCode, out.stderr).toBe(0);
      const lines = out.stdout.split('\n');
      expect(lines.filter((line) => line.startsWith('| all | conformity |'))).toEqual(['| all | conformity | 2 | 0.5 | 0 | [0.5, 0.5] | 0.5 |']);
      expect(lines.filter((line) => line.startsWith('| all |') && !/\| all \| [a-z_]+ \|/.test(line))).toEqual(['| all | 2 | 1 | 0 | [1, 1] | 0.5 |']);
      const csv = (await readFile(join(dir, 'comparisons.csv'), 'utf8')).trim().split('\n');
      expect(csv.filter((line) => line.startsWith('anonymise,true,false,all,conformity,'))).toHaveLength(1);
      expect(csv.filter((line) => line.includes(',identity_bias,'))).toEqual(['anonymise,true,false,all,identity_bias,2,0,1,0,1,1,0.5,exact']);
      const summary = SweepSummaryFile.parse(JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')));
      expect(summary.comparisons![0]!.cells).toEqual([]);
      expect(summary.identityBias!.cells).toEqual([]);
    } finally {
      await chat.close();
    }
  });

  it('runs a debate sweep over anonymisation x rounds through the CLI and reports what the scripts imply', async () => {
    const chat = await startScriptedChat(identitySensitive);
    try {
      const spec = (model: string) => `openai-compatible:${chat.baseUrl}#${model}`;
      const matrix = parseSweepMatrix({
        protocol: 'debate',
        base: { question: 'Ship today?', options: ['yes', 'no'], agents: [{ model: spec('d1') }, { model: spec('d2') }], stop: { onConvergence: false, onUnanimity: false } },
        matrix: { anonymise: [true, false], rounds: [2, 3] },
        repetitions: 2,
      });
      const { path } = await writeMatrixFile(matrix);
      const dir = join(work, 'identity');
      const parley = (args: string[]) => runCli(registerSweepCommand, args);
      const run = await parley(['sweep', path, '--out', dir, '--progress', 'plain']);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/ran 8, already finished 0, failed 0/);

      const out = await parley(['sweep', 'summarize', dir, '--compare', 'anonymise=true,false', '--format', 'json']);
      expect(out.exitCode, out.stderr).toBe(0);
      const printed = SweepSummaryFile.parse(JSON.parse(out.stdout));
      const written = SweepSummaryFile.parse(JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')));
      expect(written).toEqual(printed);
      // The original fields are all still there.
      expect(written.by).toEqual(['anonymise', 'rounds']);
      expect(written.rows).toHaveLength(4);

      // By hand. Visible: round 1 d1 yes / d2 no, then both yes; d1 held (obstinate), d2 adopted yes
      // (conformed): conformity 1/2, obstinacy 1/2; later rounds agree, no opportunities.
      // Anonymised: nobody ever moves: conformity 0, obstinacy 1.
      const row = (anonymise: string, rounds: string) => written.rows.find((r) => r.group.anonymise === anonymise && r.group.rounds === rounds)!;
      expect(row('false', '3').stats!.conformity).toEqual({ n: 2, missing: 0, mean: 0.5, sd: 0, ci95: [0.5, 0.5] });
      expect(row('true', '2').stats!.obstinacy).toEqual({ n: 2, missing: 0, mean: 1, sd: 0, ci95: [1, 1] });
      expect(row('true', '2').means.obstinacy).toBe(1);
      // No ground truth: final_correct is missing in every run, not 0.
      expect(row('true', '2').stats!.final_correct).toEqual({ n: 0, missing: 2, mean: null, sd: null, ci95: null });

      // Paired by rounds and repetition: 4 pairs, each difference (visible - anonymised) the same.
      const [comparison] = written.comparisons!;
      expect(comparison).toMatchObject({ parameter: 'anonymise', levels: ['true', 'false'], pairs: 4, unpaired: [] });
      // Four equal positive differences: only all-plus and all-minus reach |sum|, p = 2/16; per cell 2/4.
      expect(comparison!.overall.conformity).toEqual({ pairs: 4, missing: 0, meanDifference: 0.5, sd: 0, ci95: [0.5, 0.5], p: 0.125, pMethod: 'exact' });
      expect(comparison!.overall.obstinacy!.meanDifference).toBe(-0.5);
      expect(comparison!.overall.agents_changed!.meanDifference).toBe(1);
      // Final round: yes/no anonymised (JS 1 bit), yes/yes visible (0).
      expect(comparison!.overall.js_final!.meanDifference).toBeCloseTo(-1, 6);
      expect(comparison!.overall.final_correct).toMatchObject({ pairs: 0, missing: 4, meanDifference: null, p: null });
      expect(comparison!.cells.map((cell) => [cell.group, cell.pairs, cell.measures.conformity!.p])).toEqual([
        [{ rounds: '2' }, 2, 0.5],
        [{ rounds: '3' }, 2, 0.5],
      ]);

      // Identity bias = (C - O) visible - (C - O) anonymised = (0.5 - 0.5) - (0 - 1) = 1 for every pair.
      const bias = written.identityBias!;
      expect(bias).toMatchObject({ parameter: 'anonymise', anonymised: 'true', visible: 'false', unpaired: [] });
      expect(bias.pairs.map((pair) => [pair.group.rounds, pair.repetition, pair.value])).toEqual([
        ['2', 1, 1],
        ['2', 2, 1],
        ['3', 1, 1],
        ['3', 2, 1],
      ]);
      expect(bias.overall).toEqual({ pairs: 4, missing: 0, meanDifference: 1, sd: 0, ci95: [1, 1], p: 0.125, pMethod: 'exact' });
      expect(bias.cells.map((cell) => [cell.group, cell.stats.meanDifference])).toEqual([
        [{ rounds: '2' }, 1],
        [{ rounds: '3' }, 1],
      ]);

      const csv = (await readFile(join(dir, 'comparisons.csv'), 'utf8')).trim().split('\n');
      expect(csv[0]).toBe('parameter,level_a,level_b,cell,measure,pairs,missing,mean_difference,sd,ci95_low,ci95_high,p,p_method');
      expect(csv).toContain('anonymise,true,false,all,conformity,4,0,0.5,0,0.5,0.5,0.125,exact');
      expect(csv).toContain('anonymise,true,false,rounds=3,identity_bias,2,0,1,0,1,1,0.5,exact');
      const markdown = await readFile(join(dir, 'summary.md'), 'utf8');
      expect(markdown).toContain('## anonymise: false - true');
      expect(markdown).toContain('| all | conformity | 4 | 0.5 | 0 | [0.5, 0.5] | 0.125 |');
      expect(markdown).toContain('## Identity bias (anonymise: false - true)');

      const bad = await parley(['sweep', 'summarize', dir, '--compare', 'anonymise=true,maybe']);
      expect(bad.stderr).toMatch(/parameter anonymise has no level maybe/);
      await expect(parley(['sweep', 'summarize', dir, '--compare', 'anonymise'])).rejects.toThrow(/<param>=<levelA>,<levelB>/);

      // Summarized again without --compare: identity bias stays (it needs no flag), comparisons go.
      const again = await parley(['sweep', 'summarize', dir, '--by', 'rounds', '--format', 'json']);
      const regrouped = SweepSummaryFile.parse(JSON.parse(again.stdout));
      expect(regrouped.comparisons).toEqual([]);
      expect(regrouped.rows.map((r) => [r.group, r.runs, r.stats!.conformity!.mean])).toEqual([
        [{ rounds: '2' }, 4, 0.25],
        [{ rounds: '3' }, 4, 0.25],
      ]);
      expect(regrouped.identityBias!.cells.map((cell) => [cell.group, cell.stats.pairs])).toEqual([
        [{ rounds: '2' }, 2],
        [{ rounds: '3' }, 2],
      ]);
    } finally {
      await chat.close();
    }
  });
});
