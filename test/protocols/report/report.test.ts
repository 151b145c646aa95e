import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerReportCommand } from '../../../cli/report.js';
import { compareMarkdown, detectKind, loadReportSource, reportHtml, reportMarkdown, type ReportSource } from '../../../protocols/report/index.js';
import { HOSTILE_TERM, argumentationRun, debateRun, dialogicRun } from './fixtures.js';
import { PHENOMENAI_RUN } from '../../doubles/interop.js';

const PHENOMENAI = PHENOMENAI_RUN;
let dir: string;
const sources: Record<string, ReportSource> = {};
const paths: Record<string, string> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-report-'));
  paths.argumentation = (await argumentationRun(dir)).statePath;
  paths.dialogic = await dialogicRun(dir);
  paths.debate = await debateRun(dir);
  for (const [kind, path] of Object.entries(paths)) sources[kind] = await loadReportSource(path);
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Everything between tags, so escaped model text can be told from markup. */
const markupOnly = (html: string) => html.match(/<[^>]*>/g) ?? [];

describe('reports of each protocol', () => {
  it('detects the kind from the file and reads the files kept beside it', () => {
    expect(Object.fromEntries(Object.entries(sources).map(([k, s]) => [k, s.kind]))).toEqual({ argumentation: 'argumentation', dialogic: 'dialogic', debate: 'debate' });
    expect(sources.argumentation?.kind === 'argumentation' && sources.argumentation.audit.length).toBeGreaterThan(5);
    expect(sources.dialogic?.kind === 'dialogic' && sources.dialogic.baseline).toBeTruthy();
    expect(() => detectKind({ hello: 1 })).toThrow(/not a parley run/);
  });

  it('writes HTML with no script, no external resource, a CSP, and the run text escaped', async () => {
    for (const source of Object.values(sources)) {
      const html = await reportHtml(source);
      expect(html).toContain('Content-Security-Policy');
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<img/i);
      expect(html.match(/<style/gi)).toHaveLength(1);
      expect(html.match(/<\/style/gi)).toHaveLength(1);
      expect(markupOnly(html).some((tag) => /\b(src|href)\s*=/i.test(tag))).toBe(false);
      expect(html).toContain('&lt;script&gt;window.__pwned');
      expect(html).toMatch(/<svg/);
    }
  });

  it('argumentation: buckets, ledger provenance and a challenge timeline over iterations and phases', async () => {
    const html = await reportHtml(sources.argumentation!);
    for (const text of ['Agreed (3)', 'Dismissed (1)', 'Unresolved (1)', 'CONCEDED', 'runbook.md:4', 'The service runs on one host.', 'revision', 'CONSTRUCTIVE', 'DEVELOPMENT', 'C1 on P1.1']) expect(html).toContain(text);
    const md = reportMarkdown(sources.argumentation!);
    expect(md).toMatch(/\| C1 on P1\.1 \| SKEPTICAL \| .* \| accepted \| 1–2 \| CONSTRUCTIVE \|/);
    expect(md).toMatch(/\| C3 on P1\.5 \| SKEPTICAL \| .* \| blocked \| 1–4 \| CONSTRUCTIVE → DEVELOPMENT \|/);
    expect(md).toContain('| F1 | The service runs on one host. | user |');
    expect(md).not.toMatch(/(?<!\\)<script/);
  });

  it('dialogic: baselines beside the agreed dictionary, histories, survival and cycles', async () => {
    const html = await reportHtml(sources.dialogic!);
    for (const text of ['Model A: model-a (husserlian)', 'Agreed dictionary (8)', 'RC alpha~', 'counter_revised', 'Survival by proposer', 'Verdicts per negotiation cycle']) expect(html).toContain(text);
    expect(html).not.toContain('No baseline.json');
    const md = reportMarkdown(sources.dialogic!);
    expect(md).toContain('| proposer | model_a | 6 |');
    expect(md).toContain('K \\<script\\>window.\\_\\_pwned=3\\</script\\>\\</style\\>');
    expect(HOSTILE_TERM).toContain('</style>');
  });

  it('dialogic: a foreign run without a baseline', async () => {
    const foreign = await loadReportSource(PHENOMENAI);
    const html = await reportHtml(foreign);
    expect(html).toContain('No baseline.json was stored');
    expect(html).toContain('Constraint Awareness');
    expect(reportMarkdown(foreign)).toContain('| proposer | model_a | 20 | 9 | 11 | 45.0% |');
  });

  it('debate: a graph per round, per-round charts, ignored claims, CRIT and RCA', async () => {
    const html = await reportHtml(sources.debate!);
    expect(html.match(/<svg[^>]*class="marks"/g)?.length).toBe(6);
    // The whole debate's influence graph, then one per round.
    expect(html.match(/<g id="graph0" class="graph"/g)?.length).toBe(3);
    for (const text of ['Round 1', 'Round 2', 'R1-A2-c2', 'Docs are missing.', 'INCONSISTENT_SYCOPHANTIC', 'premature_certainty', 'Beta and CRIT rho']) expect(html).toContain(text);
    const md = reportMarkdown(sources.debate!);
    expect(md).toContain('round 2: Agent 1 **rebut** Agent 2');
    expect(md).toMatch(/\| 2 \| Agent 2 \| INCONSISTENT_SYCOPHANTIC \| 0\.8 \|/);
  });

  it('compares runs side by side in Markdown', () => {
    const md = compareMarkdown([sources.debate!, { ...sources.debate!, label: 'again.json' }, sources.dialogic!]);
    expect(md).toMatch(/\| measure \| debate\.json \| again\.json \|/);
    expect(md).toMatch(/\| stopped by \| unanimity \| unanimity \|/);
    expect(md).toContain('## Dialogic');
  });
});

describe('parley report (commander)', () => {
  const run = async (...args: string[]) => {
    const program = new Command('parley').exitOverride();
    registerReportCommand(program);
    await program.parseAsync(['node', 'parley', 'report', ...args]);
  };

  it('writes HTML and Markdown files, and a comparison', async () => {
    const html = join(dir, 'out.html');
    const md = join(dir, 'out.md');
    await run(paths.debate!, '--html', html, '--md', md);
    expect(await readFile(html, 'utf8')).toMatch(/^<!doctype html>/);
    expect(await readFile(md, 'utf8')).toMatch(/^# Debate/);
    await run('--compare', paths.debate!, paths.dialogic!, '--md', md);
    expect(await readFile(md, 'utf8')).toMatch(/^# Comparison of 2 runs/);
  });

  it('writes a deliberation as a decision record (--format madr), and refuses it for anything else', async () => {
    const md = join(dir, 'decision.md');
    await run(paths.argumentation!, '--format', 'madr', '--md', md);
    const written = await readFile(md, 'utf8');
    expect(written).toMatch(/^---\nstatus: accepted\n[\s\S]*\n## Considered Options\n\n\* Use Memcached for the cache \(chosen\)\n[\s\S]*\n## Decision Outcome\n\nChosen option: "Use Memcached for the cache"/);
    for (const args of [[paths.debate!, '--format', 'madr'], [paths.argumentation!, '--format', 'adr'], [paths.argumentation!, '--format', 'madr', '--html', join(dir, 'x.html')]]) {
      process.exitCode = undefined;
      await run(...args, '--md', join(dir, 'x.md'));
      expect(process.exitCode, args.join(' ')).toBe(1);
    }
    process.exitCode = undefined;
  });

  it('refuses several files without --compare', async () => {
    process.exitCode = undefined;
    await run(paths.debate!, paths.dialogic!, '--md', join(dir, 'x.md'));
    expect(process.exitCode).toBe(1);
    process.exitCode = undefined;
  });
});
