import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMove, deliberationMarkdown, startDeliberation, type MoveResult } from '../../../protocols/argumentation/index.js';
import { resolutionIterations } from '../../../protocols/argumentation/report/timeline.js';
import { loadReportSource, reportHtml, reportMarkdown } from '../../../protocols/report/index.js';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import type { AuditRecord } from '../../../state/audit-log.js';
import { LONG_POINT, argumentationRun } from './fixtures.js';

let dir: string;
let state: DeliberationState;
let audit: AuditRecord[];
let statePath: string;
/** The full report: the file beside the state, the resource and `parley report` all give this. */
let md: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-report-md-'));
  ({ statePath } = await argumentationRun(dir));
  const source = await loadReportSource(statePath);
  if (source.kind !== 'argumentation') throw new Error('expected an argumentation state');
  ({ state, audit } = source);
  md = deliberationMarkdown(state, { audit });
}, 30_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const headings = (text: string) => text.split('\n').filter((line) => line.startsWith('#'));

describe('the full report (one renderer, escaped)', () => {
  it('is one report: the file written beside the state, `parley report` and the renderer of the state agree', async () => {
    expect(await readFile(statePath.replace(/\.json$/, '.report.md'), 'utf8')).toBe(md);
    expect(reportMarkdown({ kind: 'argumentation', label: 'x', state, audit })).toBe(md);
    // Nothing of the report is kept in the state file: it is rendered from the state.
    expect(JSON.parse(await readFile(statePath, 'utf8')).value.report).toEqual({ synthesizedAt: '2026-05-01T10:00:00.000Z' });
  });

  it('leads with the recommendation, its confidence and caveats', () => {
    expect(headings(md).slice(0, 2)).toEqual(['# Deliberation report', '## RECOMMENDATION']);
    const recommendation = md.slice(md.indexOf('## RECOMMENDATION'), md.indexOf('## AGREED'));
    expect(recommendation).toContain('Use Memcached for the cache.');
    expect(recommendation).toContain('Confidence: **medium**');
    expect(recommendation).toContain('- Revisit if warm restarts start to matter.');
  });

  it('escapes consultee, orchestrator and arbiter text: no heading, list item, underline, code span, link or HTML of theirs', () => {
    expect(headings(md)).toEqual([
      '# Deliberation report',
      '## RECOMMENDATION',
      '## WHAT CHANGED (2)',
      '## AGREED (3)',
      '## DISMISSED (1)',
      '## UNRESOLVED (1)',
      '## SURFACED QUESTIONS',
      '## ARBITRATION',
      '## NOT EVALUATED (2)',
      '## CHALLENGES',
      '## LEDGER',
    ]);
    const lines = md.split('\n');
    expect(lines.filter((line) => /^\s*(=+|-+)\s*$/.test(line))).toEqual([]);
    expect(lines.filter((line) => /^\s*([-+*]|\d+[.)])\s/.test(line) && !/^(\s\s)?- (\*\*[A-Z]\d|\d+ |Revisit|A caveat)/.test(line))).toEqual([]);
    expect(md).not.toMatch(/(?<!\\)</);
    expect(md).not.toMatch(/(?<!\\)`/);
    expect(md).not.toMatch(/(?<!\\)\[link/);
    expect(md).toContain('\\<script\\>window.\\_\\_pwned = 1\\</script\\>');
    // Each line of a point keeps its line, inert, inside its item.
    expect(md).toContain('\\`rm -rf /\\` INFERENCE  \n  \\===  \n  \\- fake item');
    expect(md).toContain('\\===  \n\\#\\# Injected heading  \n\\- fake step');
  });

  it('states every claim in full, a narrowed one by its narrowed claim with its former wording as history, and cites premises by id', () => {
    expect(LONG_POINT.length).toBeGreaterThan(600);
    expect(md).toContain(`**P1.2** ${LONG_POINT} INFERENCE`);
    expect(md).toContain(
      '**P1.1** persistence matters only for warm restarts after deploys.  \n  Empirical claim · textual evidence: runbook.md:4 "restart weekly"  \n  Why: the runbook shows weekly restarts  \n  Narrowed from: Redis supports persistence, so a restart keeps the cache warm.',
    );
    expect(md).toContain('**P1.4** A single-host cache dies with its host whichever you pick. INFERENCE  \n  Logical claim, from F1  \n  Why: one host is one failure domain');
    // The premise's text is the ledger's (the appendix), not repeated under each claim.
    expect(md.indexOf('The service runs on one host.')).toBeGreaterThan(md.indexOf('## LEDGER'));
    expect(md).toContain('CONCEDED: The consultee conceded C2 in iteration 2');
  });

  it('gives each crux what would settle it, the surfaced questions and whether the stress test ran', () => {
    expect(md).toContain('Crux (blocked): No benchmark backs the speed claim. (no numbers on either side)  \n  To settle it: measure p99 GET latency under pipelining; threshold: 1 ms; verdict change: below it speed stops mattering');
    expect(md).toContain('- **Q1** What p99 latency does the service need? (from P1.5)');
    expect(md).toContain('Stress test: not run (not warranted).');
  });

  it("keeps the arbiter's reasons and remarks (Markdown and HTML)", async () => {
    const arbitration = md.slice(md.indexOf('## ARBITRATION'), md.indexOf('## NOT EVALUATED'));
    expect(arbitration).toContain('The arbiter (arbiter-model) flagged 1 of 5 items (20%).');
    expect(arbitration).toContain('- **P1.2** (agreed): A value claim resting on taste.');
    expect(arbitration).toContain('The Memcached side was never argued by anyone who wanted it to win.');
    const html = await reportHtml({ kind: 'argumentation', label: 'x', state, audit });
    expect(html).toContain('A value claim resting on taste. &lt;script&gt;');
    expect(html).toContain('The Memcached side was never argued by anyone who wanted it to win.');
    expect(html).toContain('by arbiter-model');
  });

  it('groups Not Evaluated by why, one short line per item', () => {
    expect(md.slice(md.indexOf('## NOT EVALUATED'), md.indexOf('## CHALLENGES'))).toBe(
      '## NOT EVALUATED (2)\n\n- 2 late new arguments, outside what their phase admits (P4.1, P4.2)\n  - **P4.1** Consider Hazelcast instead. INFERENCE\n  - **P4.2** KeyDB is a drop-in alternative. GUESS\n\n',
    );
  });

  it('dates each judged challenge from the audit log of judge moves', () => {
    expect([...resolutionIterations(audit)]).toEqual([
      ['C1', 2],
      ['C3', 4],
    ]);
  });

  it('the HTML report shows the recommendation first, escaped', async () => {
    const html = await reportHtml({ kind: 'argumentation', label: 'x', state, audit });
    const at = (text: string) => html.indexOf(text);
    expect(at('<h2>Recommendation</h2>')).toBeGreaterThan(at('</header>'));
    expect(at('<h2>Recommendation</h2>')).toBeLessThan(at('<div class="cards"'));
    expect(html).toContain('<p>Use Memcached for the cache.</p>');
    expect(html).toContain('Revisit if warm restarts start to matter.');
    expect(html).toContain('persistence matters only for warm restarts after deploys. <span class="muted">(narrowed from: Redis supports persistence');
  });
});

describe('sections with nothing in them', () => {
  const ctx = { now: '2026-05-01T10:00:00Z' };
  const ok = (result: MoveResult) => {
    if (!result.ok) throw new Error(result.refusal.message);
    return result.state;
  };

  it('are left out, not printed as _none_; an unsynthesized state says so and has no recommendation', () => {
    let s = ok(startDeliberation({ question: 'Is 2 + 2 = 4?', mode: 'minimal' }, { ...ctx, id: 'tiny' }));
    s = ok(applyMove(s, 'reply_record', { text: '1. Yes, by the definition of addition on the naturals. INFERENCE' }, ctx));
    s = ok(applyMove(s, 'judge', { points: [{ id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'arithmetic as taught, no dispute here' }] }, ctx));
    const before = deliberationMarkdown(s);
    expect(before).toContain('_Not synthesized yet: the state as it stands._');
    expect(before).not.toContain('RECOMMENDATION');
    s = ok(applyMove(s, 'judge', { phase: { trivial: true }, synthesis: { recommendation: 'Yes.', confidence: 'high' } }, ctx));
    const report = deliberationMarkdown(s);
    expect(headings(report)).toEqual(['# Deliberation report', '## RECOMMENDATION', '## AGREED (1)']);
    expect(report).not.toMatch(/_none_|Caveats|Stress test|Not synthesized/);
    expect(report).toContain('1 agreed · 0 dismissed · 0 unresolved\n');
  });
});
