import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisionRecordMarkdown } from '../../../protocols/argumentation/index.js';
import { decisionTitle } from '../../../protocols/argumentation/report/decision-record.js';
import { recordLeaks } from '../../../scripts/ab/record-leaks.js';
import { DeliberationState } from '../../../schemas/argumentation.js';
import { active, codeSpans, headings } from '../report/markdown-ast.js';
import { argumentationState } from '../report/fixtures.js';
import { start } from './helpers.js';
import { versionedState } from './versions.js';

let state: DeliberationState;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ state, cleanup } = await argumentationState('parley-madr-'));
}, 30_000);

afterAll(() => cleanup());

/** A MADR section's lines: from its heading to the next one. */
function section(md: string, title: string): string[] {
  const from = md.indexOf(`${title}\n`);
  const to = md.indexOf('\n#', from + title.length);
  return md.slice(from + title.length, to < 0 ? undefined : to).split('\n').filter(Boolean);
}

describe('the decision record (MADR), from the same record as the report', () => {
  const madr = () => decisionRecordMarkdown(state);

  it('has MADR 4 front matter and sections, titled by the decision', () => {
    const md = madr();
    expect(md.startsWith('---\nstatus: accepted\ndate: 2026-05-01\nconsulted: "Codex (the consultee), a fresh reviewer (arbiter-model)"\n---\n')).toBe(true);
    // The body after the front matter, as a Markdown reader renders it.
    expect(headings(md.slice(md.indexOf('\n---\n', 4) + 5))).toEqual([
      'Use Memcached for the cache',
      '## Context and Problem Statement',
      '## Decision Drivers',
      '## Considered Options',
      '## Decision Outcome',
      '### Consequences',
      '### Confirmation',
      '## More Information',
    ].map((h, i) => (i === 0 ? `# ${h}` : h)));
  });

  it('takes context from the question and drivers from the user constraints; the chosen option is the decision', () => {
    const md = madr();
    expect(section(md, '## Context and Problem Statement')[0]).toMatch(/^Should the cache use Redis or Memcached\? /);
    expect(section(md, '## Decision Drivers')).toEqual(['* The service runs on one host.']);
    // The conceded claim is what Codex changed, not an option the team weighed.
    expect(section(md, '## Considered Options')).toEqual(['* Use Memcached for the cache (chosen)']);
    expect(section(md, '## Decision Outcome')[0]).toBe('Chosen option: "Use Memcached for the cache", because it is the recommendation the deliberation reached, with medium confidence on 3 agreed claims.');
  });

  it('gives as consequences, in plain words, the agreed claims with who checked them, the caveats, what stays open and the questions for the team', () => {
    const consequences = section(madr(), '### Consequences');
    expect(consequences.map((line) => line.split(',')[0])).toEqual(['* Good', '* Good', '* Good', '* Bad', '* Bad', '* Neutral', '* Neutral']);
    expect(consequences[0]).toBe('* Good, because persistence matters only for warm restarts after deploys. — the orchestrator read it in: runbook.md:4 "restart weekly"');
    expect(consequences[3]).toBe('* Bad, because Revisit if warm restarts start to matter.');
    expect(consequences[5]).toBe('* Neutral, because it stays open: Redis is faster than Memcached for this workload. — open: No benchmark backs the speed claim. (no numbers on either side) To settle it, measure p99 GET latency under pipelining (it matters at 1 ms).');
    expect(consequences[6]).toBe('* Neutral, because the team has still to answer: What p99 latency does the service need?');
    expect(section(madr(), '### Confirmation')[0]).toBe('* a fresh reviewer flagged 1 of 5 placements');
    expect(madr()).not.toMatch(/\bP\d+\.\d+\b|\b[CFQ]\d+\b|\bGUESS\b|EVIDENCE/);
  });

  it('says what Codex changed during the deliberation, under More Information', () => {
    const info = section(madr(), '## More Information');
    expect(info[0]).toBe('What changed during the deliberation:');
    expect(info[1]).toMatch(/^\* Codex narrowed "Redis supports persistence, so a restart keeps the cache warm\. docs say RDB snapshots\." to "persistence matters only for warm restarts after deploys\." after the orchestrator objected/);
    expect(info.at(-1)).toMatch(/^Deliberation report-delib \(standard mode, 5 iterations, ended by convergence\)\./);
  });

  it('titles a long decision by its first clause that fits, never by the question or half a word', () => {
    const state = DeliberationState.parse(versionedState());
    expect(decisionTitle(state, 'Supersede ADR 0036: do not keep in-process timers, with or without a leader lock. Every task polls.')).toBe('Supersede ADR 0036: do not keep in-process timers, with or without a leader lock');
    const long = 'Move the reminder emails to a poller on every task that claims due rows with SKIP LOCKED, behind a three-state claim, with a sweeper for expired leases.';
    expect(decisionTitle(state, long)).toBe('Move the reminder emails to a poller on every task that claims due rows with SKIP LOCKED');
  });

  it('keeps every string inert, as the report does', () => {
    expect(active(madr())).toEqual([]);
    expect(codeSpans(madr())).toEqual(['parley report']);
  });

  it('states current claims only: a replaced version is what changed, not a consequence', () => {
    const md = decisionRecordMarkdown(DeliberationState.parse(versionedState()));
    const consequences = section(md, '### Consequences');
    expect(consequences).toContain('* Good, because Retry a failed enqueue once, inside the same transaction, and alert on the second failure. — a value judgment: the alert makes the second failure visible');
    expect(consequences.join('\n')).not.toContain('Enqueue every job in the business transaction.');
    expect(section(md, '## More Information')).toContain('* Codex narrowed "Enqueue every job in the business transaction." to "Enqueue in the business transaction where there is one." after the orchestrator objected "Not every job comes from a business write." (agreed).');
  });

  it('of the real reversal of ADR 0036: titled by the decision, with no id, label, scratch path or cut line outside the record line', () => {
    const dir = join(import.meta.dirname, 'real-minds', '2026-11-28-adr-reversal');
    const md = decisionRecordMarkdown(DeliberationState.parse(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).value));
    expect(headings(md.slice(md.indexOf('\n---\n', 4) + 5))[0]).toBe('# Supersede ADR 0036: do not keep in-process timers, with or without a leader lock');
    // Past the question (the user's words, as they wrote them) and before the line that names the record.
    const body = md.slice(md.indexOf('## Considered Options'), md.lastIndexOf('\nDeliberation d-'));
    expect(recordLeaks(body)).toEqual([]);
    expect(body).not.toMatch(/\bP\d+\.\d+\b|\bEVIDENCE\b|\bINFERENCE\b|…/);
    // What the server wrote before this change, kept beside it: the question as its title, ids and cut lines in it.
    const before = readFileSync(join(dir, 'written-0037.md'), 'utf8');
    expect(before).toMatch(/^# We're about to scale the billing API/m);
    expect(recordLeaks(before.slice(0, before.lastIndexOf('\nDeliberation d-'))).length).toBeGreaterThan(0);
  });

  it('exists once the deliberation is synthesized', () => {
    expect(() => decisionRecordMarkdown(start())).toThrow(/not synthesized yet/);
  });
});
