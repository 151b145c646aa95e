import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisionRecordMarkdown } from '../../../protocols/argumentation/index.js';
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

  it('has MADR 4 front matter and sections', () => {
    const md = madr();
    expect(md.startsWith('---\nstatus: accepted\ndate: 2026-05-01\nconsulted: "the consultee (Codex), an arbiter (arbiter-model)"\n---\n')).toBe(true);
    // The body after the front matter, as a Markdown reader renders it.
    expect(headings(md.slice(md.indexOf('\n---\n', 4) + 5))).toEqual([
      expect.stringMatching(/^# Should the cache use Redis or Memcached\? \\<script\\>/),
      '## Context and Problem Statement',
      '## Decision Drivers',
      '## Considered Options',
      '## Decision Outcome',
      '### Consequences',
      '### Confirmation',
      '## More Information',
    ]);
  });

  it('takes context from the question and drivers from the user constraints; options are the recommendation and the claims set aside or left open', () => {
    const md = madr();
    expect(section(md, '## Decision Drivers')).toEqual(['* The service runs on one host.']);
    const options = section(md, '## Considered Options');
    expect(options[0]).toBe('* Use Memcached for the cache. (chosen)');
    expect(options.slice(1)).toEqual([
      expect.stringMatching(/^\* P1\.3 \\<script\\>.* \(set aside, CONCEDED: The consultee conceded C2 in iteration 2\.\)$/),
      '* P1.5 Redis is faster than Memcached for this workload. GUESS (left open, blocked)',
    ]);
    expect(section(md, '## Decision Outcome')[0]).toBe('Chosen option: "Use Memcached for the cache.", because it is the recommendation the deliberation reached, with medium confidence on 3 agreed claims.');
  });

  it('gives as consequences the agreed claims, the caveats, the unresolved cruxes and the open questions', () => {
    const consequences = section(madr(), '### Consequences');
    expect(consequences.map((line) => line.split(',')[0])).toEqual(['* Good', '* Good', '* Good', '* Bad', '* Bad', '* Neutral', '* Neutral']);
    expect(consequences[0]).toBe('* Good, because P1.1 persistence matters only for warm restarts after deploys.');
    expect(consequences[3]).toBe('* Bad, because Revisit if warm restarts start to matter.');
    expect(consequences[5]).toBe('* Neutral, because P1.5 is unresolved: No benchmark backs the speed claim. (no numbers on either side); settle it by measuring p99 GET latency under pipelining against 1 ms');
    expect(consequences[6]).toBe('* Neutral, because the question Q1 is open: What p99 latency does the service need?');
    expect(section(madr(), '### Confirmation')).toEqual([expect.stringMatching(/^A fresh reviewer checked every placed claim and flagged 1 of 5: P1\.2 \(A value claim resting on taste\. \\<script\\>/)]);
  });

  it('keeps every string inert, as the report does', () => {
    expect(active(madr())).toEqual([]);
    expect(codeSpans(madr())).toEqual(['parley report']);
  });

  it('states current claims only: a replaced version is not a consequence', () => {
    const md = decisionRecordMarkdown(DeliberationState.parse(versionedState()));
    expect(section(md, '### Consequences').map((line) => /P\d\.\d/.exec(line)?.[0])).toEqual(['P1.1', 'P1.2', 'P2.1', 'P3.1', undefined]);
    expect(md).not.toMatch(/P1\.3 |P2\.3 |created_at/);
  });

  it('exists once the deliberation is synthesized', () => {
    expect(() => decisionRecordMarkdown(start())).toThrow(/not synthesized yet/);
  });
});
