import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerText, compareHtml, compareMarkdown, loadReportSource, reportHtml, reportMarkdown, type ReportSource } from '../../../protocols/report/index.js';
import { lineChart } from '../../../protocols/report/charts.js';
import { esc, fmt } from '../../../protocols/report/html.js';
import { debateRun, dialogicRun } from './fixtures.js';
import { REASONING, sweepRun, tiedDebateRun } from './fixtures-extra.js';
import { runParley } from '../../cli/run-parley.js';

let dir: string;
let sweep: string;
const paths: Record<string, string> = {};
const sources: Record<string, ReportSource> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-report-extra-'));
  paths.debate = await debateRun(dir);
  paths.tied = await tiedDebateRun(dir);
  paths.dialogic = await dialogicRun(dir);
  sweep = await sweepRun(dir);
  for (const [name, path] of Object.entries(paths)) sources[name] = await loadReportSource(path);
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const CELLS = ['pairing=p1, anonymise=true', 'pairing=p1, anonymise=false', 'pairing=p2, anonymise=true', 'pairing=p2, anonymise=false'];

describe('debate report', () => {
  it('names the two sycophancy signals apart: the s_t measure and the RCA judge, each with its own value', async () => {
    const html = await reportHtml(sources.debate!);
    expect(html).not.toMatch(/sycophancy rounds/i);
    expect(html).toMatch(/<div class="v">rounds 2<\/div><div class="l">sycophancy signal <span class="sym">s_t<\/span><\/div>/);
    expect(html).toMatch(/<div class="v">Agent 2 \(round 2\)<\/div><div class="l">RCA judge: sycophantic<\/div>/);
    expect(reportMarkdown(sources.debate!)).toContain('s_t (JS and evidence overlap both fell): rounds 2 · RCA judge, sycophantic verdicts: Agent 2 (round 2)');
    // Neither fired in the tied debate, and RCA was not run there: the page says which.
    const tied = await reportHtml(sources.tied!);
    expect(tied).toMatch(/<div class="v">none<\/div><div class="l">sycophancy signal <span class="sym">s_t<\/span><\/div>/);
    expect(tied).toMatch(/<div class="v">not run<\/div><div class="l">RCA judge: sycophantic<\/div>/);
  });

  it('says "tie: A, B" where the most common answer is tied, and the majority where it is not', async () => {
    const html = await reportHtml(sources.tied!);
    expect(html.match(/<td>tie: no, yes<\/td>/g)).toHaveLength(2);
    expect(html).toMatch(/<td>yes<\/td><td class="num">0\.75<\/td>/);
    const md = reportMarkdown(sources.tied!);
    expect(md).toContain('| 1 | 4 | tie: no, yes | 0.5 |');
    expect(md).toContain('| 3 | 4 | yes | 0.75 |');
  });

  it('shows what each agent said: answer, confidence and reasoning per turn', async () => {
    const html = await reportHtml(sources.tied!);
    expect(html.match(/<details class="turn">/g)).toHaveLength(12);
    expect(html).toContain(`<dt>reasoning</dt><dd>${REASONING}</dd>`);
    expect(reportMarkdown(sources.tied!)).toContain(`| 1 | Agent 1 | yes | 0.9 | ${REASONING} |`);
  });

  it('writes counts with thousands separators and a missing value as a dash', async () => {
    expect([fmt(1234567), fmt(12345.6789, 2), fmt(null), fmt(Number.NaN), fmt(-0.0001)]).toEqual(['1,234,567', '12,345.68', '–', '–', '0']);
    const transcript = JSON.parse(await readFile(paths.debate!, 'utf8')) as { usage: { inputTokens: number; outputTokens: number } };
    transcript.usage = { ...transcript.usage, inputTokens: 1_234_567, outputTokens: 89_012 };
    const big: ReportSource = { kind: 'debate', label: 'big.json', transcript };
    expect(await reportHtml(big)).toContain('1,234,567 / 89,012');
    expect(reportMarkdown(big)).toContain('tokens 1,234,567 in / 89,012 out');
    expect(compareMarkdown([big, sources.debate!])).toMatch(/\| tokens in \/ out \| 1,234,567 \/ 89,012 \|/);
  });

  it('breaks a line chart at a missing value instead of joining its neighbours', async () => {
    const svg = await lineChart([1, null, 2, 3].map((y, i) => ({ x: i + 1, y, series: 's' })), { title: 't', x: 'x', y: 'y' });
    const d = /class="mark-line[^"]*"[^>]*>\s*<path[^>]*\bd="([^"]*)"/.exec(svg)?.[1];
    expect(d?.match(/M/g)).toHaveLength(2);
  });

  it('renders a transcript carrying fields it does not know, and an answer given as a weight map', async () => {
    const transcript = JSON.parse(await readFile(paths.tied!, 'utf8')) as Record<string, unknown> & { rounds: { turns: { record?: Record<string, unknown> }[] }[] };
    transcript.weightedVote = { yes: 2.4, no: 1.3 };
    for (const round of transcript.rounds) {
      (round as Record<string, unknown>).confidenceWeightedMajority = 'yes';
      for (const turn of round.turns) if (turn.record) turn.record.answerWeights = { yes: 0.7, no: 0.3 };
    }
    const source: ReportSource = { kind: 'debate', label: 'x', transcript };
    expect(await reportHtml(source)).toContain('tie: no, yes');
    expect(reportMarkdown(source)).toContain('tie: no, yes');
    expect(answerText({ no: 0.3, yes: 0.7 })).toBe('yes 0.7, no 0.3');
    expect(answerText(['odd'])).toBe('["odd"]');
  });
});

describe('debate report, read (issue 28)', () => {
  it('says under a table what its short column names measure and on what scale: the rounds table and CRIT', async () => {
    const html = await reportHtml(sources.debate!);
    const legendAfter = (header: string) => new RegExp(`<th[^>]*>${header}</th>[\\s\\S]*?</table></div>\\s*<p class="legend">(.*?)</p>`).exec(html)?.[1] ?? '';
    const rounds = legendAfter('ΔJS');
    for (const name of ['H(votes)', 'JS', 'ΔJS', 'overlap', 's_t', 'collapse', 'rebuttals', 'beta']) expect(rounds, name).toContain(`<b>${esc(name)}</b> `);
    expect(rounds).toContain('<b>s_t</b> 1 when JS fell by more than δ = 0.05 bits and overlap fell');
    expect(rounds).toMatch(/<b>JS<\/b> [^·]*bits \(0: identical\)/);
    const crit = legendAfter('rho \\(0–1\\)');
    expect(html).toContain('<th class="num">gamma (1–100)</th>');
    expect(crit).toMatch(/<b>gamma<\/b> mean of validity × credibility \(each 1–10\)[^·]*1–100/);
  });

  it('lists the turns of a round in the order of the agents, not in the order they finished', async () => {
    const transcript = JSON.parse(await readFile(paths.debate!, 'utf8')) as { rounds: { turns: { label: string }[] }[] };
    for (const round of transcript.rounds) round.turns.reverse();
    const source: ReportSource = { kind: 'debate', label: 'finished in reverse', transcript };
    const html = await reportHtml(source);
    const agents = ['Agent 1', 'Agent 2', 'Agent 3', 'Agent 4'];
    const rounds = html.split(/<h3>Round \d+ <span class="muted">majority/).slice(1);
    expect(rounds).toHaveLength(transcript.rounds.length);
    for (const round of rounds) expect([...round.matchAll(/<details class="turn"><summary><b>(.*?)<\/b>/g)].map((m) => m[1])).toEqual(agents);
    const rows = reportMarkdown(source).split('## What the agents said')[1]!.split('\n## ')[0]!.split('\n').filter((line) => /^\| \d+ \| Agent/.test(line));
    expect(rows.map((row) => row.split(' | ').slice(0, 2).join(' | '))).toEqual(['1', '2'].flatMap((n) => agents.map((agent) => `| ${n} | ${agent}`)));
  });
});

describe('dialogic report', () => {
  it("shows the proposer's counter-revision beside the responder's revision", async () => {
    const html = await reportHtml(sources.dialogic!);
    expect(html).toContain("<th>proposer&#39;s answer</th>");
    expect(html).toContain('counter_revise</span> Your revision loses the texture.<br><b>counter-revision:</b> RC alpha~: The state called RC alpha~. It can be recognised by a test.');
    expect(reportMarkdown(sources.dialogic!)).toMatch(/## Proposers' counter-revisions[\s\S]*\| RC alpha\\~ \| 1 \| Your revision loses the texture\. \| RC alpha\\~: The state called RC alpha\\~\./);
  });
});

describe('sweeps in the comparison', () => {
  it('reads a sweep from its summary.json, its folder or its sweep.json: one column per cell, named by parameters', async () => {
    for (const path of [join(sweep, 'summary.json'), sweep, join(sweep, 'sweep.json')]) {
      const source = await loadReportSource(path);
      expect(source.kind).toBe('sweep');
      const md = compareMarkdown([source]);
      expect(md).toContain(`| measure | ${CELLS.join(' | ')} |`);
      expect(md).toContain('| runs | 2 | 2 | 2 | 2 |');
      // Both runs of each cell agree: an interval of no width is left out.
      expect(md).toMatch(/\| survival_rate \| 0\.75 \| 0\.75 \| 0\.375 \| 0\.375 \|/);
      expect(md).not.toContain('95% interval');
    }
  });

  it('prints the 95% interval beside the mean where it has a width', async () => {
    const stored = JSON.parse(await readFile(join(sweep, 'summary.json'), 'utf8')) as { rows: { stats: Record<string, { ci95: number[] }> }[] };
    stored.rows[0]!.stats.survival_rate!.ci95 = [0.5, 1];
    await writeFile(join(dir, 'spread.json'), JSON.stringify(stored));
    const md = compareMarkdown([await loadReportSource(join(dir, 'spread.json'))]);
    expect(md).toContain('with its 95% interval in brackets');
    expect(md).toMatch(/\| survival_rate \| 0\.75 \[0\.5, 1\] \| 0\.75 \| 0\.375 \| 0\.375 \|/);
  });

  it('reads an older summary.json (no stats, no protocol) and one with fields it does not know', async () => {
    const stored = JSON.parse(await readFile(join(sweep, 'summary.json'), 'utf8')) as { rows: Record<string, unknown>[] } & Record<string, unknown>;
    const older = { by: stored.by, measures: stored.measures, unfinished: stored.unfinished, rows: stored.rows.map(({ group, runs, means }) => ({ group, runs, means })) };
    await writeFile(join(dir, 'older.json'), JSON.stringify(older));
    const md = compareMarkdown([await loadReportSource(join(dir, 'older.json'))]);
    expect(md).toMatch(/\| survival_rate \| 0\.75 \| 0\.75 \| 0\.375 \| 0\.375 \|/);
    const newer = { ...stored, futureField: { a: 1 }, rows: stored.rows.map((row) => ({ ...row, stats: 'changed shape', extra: [1] })) };
    await writeFile(join(dir, 'newer.json'), JSON.stringify(newer));
    expect(compareMarkdown([await loadReportSource(join(dir, 'newer.json'))])).toMatch(/\| survival_rate \| 0\.75 \| 0\.75 \| 0\.375 \| 0\.375 \|/);
  });

  it("names a sweep's run files by their parameters and repetition", async () => {
    const name = (await readdir(sweep)).find((file) => /^dlg-p2-false-.*-r2\.json$/.test(file))!;
    expect((await loadReportSource(join(sweep, name))).label).toBe('pairing=p2, anonymise=false #2');
  });
});

// Two runs of the parley CLI over a whole sweep: a guard for a loaded machine, not a measured time.
describe('parley report --compare on a sweep, from the shell', { timeout: 120_000 }, () => {
  const parley = (args: string[]) => runParley(['report', ...args], { cwd: dir });

  it('summary.json --compare exits 0 and names the columns by parameters', async () => {
    const ran = await parley([join(sweep, 'summary.json'), '--compare']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain(`| measure | ${CELLS.join(' | ')} |`);
    expect(ran.stdout).not.toMatch(/not a parley run/);
  });

  it('the whole folder as results/*.json --compare: runs named by parameters, the sweep once, totals.json skipped', async () => {
    const files = (await readdir(sweep)).filter((file) => file.endsWith('.json')).map((file) => join(sweep, file));
    const html = join(dir, 'all.html');
    const ran = await parley([...files, '--compare', '--html', html, '--md', join(dir, 'all.md')]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toMatch(/skipped \S+totals\.json/);
    const md = await readFile(join(dir, 'all.md'), 'utf8');
    expect(md).toMatch(/^# Comparison of 8 runs and 1 sweep/);
    expect(md.match(/## Sweep: capitulation \(dialogic\)/g)).toHaveLength(1);
    expect(md).toContain('| measure | pairing=p1, anonymise=false \\#1 | pairing=p1, anonymise=false \\#2 | pairing=p1, anonymise=true \\#1 |');
    expect(await readFile(html, 'utf8')).toContain('<table class="compare">');
    const folder = await parley([sweep, '--compare']);
    expect(folder.code, folder.stderr).toBe(0);
    expect(folder.stdout).toContain(`| measure | ${CELLS.join(' | ')} |`);
  });
});

describe('what the pages call things (looked at in Chromium, issue 22)', () => {
  it('names the dominant agent as the debate showed it, and says what "right" was measured against', async () => {
    const html = await reportHtml(sources.debate!);
    expect(html).toContain('<div class="v">Agent 1</div><div class="l">dominant agent</div>');
    const compared = [sources.debate!, { ...sources.debate!, label: 'copy.json' }];
    for (const text of [compareMarkdown(compared), await compareHtml(compared)]) {
      expect(text).toMatch(/dominant agent(<\/td><td>| \| )Agent 1/);
      expect(text).toMatch(/final answer matches the ground truth(<\/td><td>| \| )no/);
      expect(text).not.toMatch(/(<td>|\| )right(<\/td>| \|)/);
    }
  });

  it('names the two dialogic models "Model A" and "Model B" with their model names, never by the run file\'s slot keys', async () => {
    const html = await reportHtml(sources.dialogic!);
    expect(html).not.toMatch(/model_[ab]/);
    expect(html).toContain('<td>Model A (model-a)</td>');
    expect(html).toMatch(/<text[^>]*>Model B<\/text>/);
    expect(await compareHtml([sources.dialogic!])).not.toMatch(/model_[ab]/);
  });

  it('a sweep page names its folder, not where the folder lies on the author\'s disk', async () => {
    const html = await reportHtml(await loadReportSource(sweep));
    expect(html).not.toContain(dir);
    expect(html).toContain('Folder: sweep.');
  });
});
