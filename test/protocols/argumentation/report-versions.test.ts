import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerBrief, deliberationMarkdown } from '../../../protocols/argumentation/index.js';
import { argumentationHtml } from '../../../protocols/report/argumentation-html.js';
import { DeliberationState } from '../../../schemas/argumentation.js';
import { active, codeBlocks, headings, topItems } from '../report/markdown-ast.js';
import { advance, agreeValue, apply, judged, points, recommendation, reply, start } from './helpers.js';
import { FOLDED, ITEM, REFINED, versionedState } from './versions.js';

/** A claim's section: from its heading to the next one. */
const sectionOf = (md: string, title: string) => md.slice(md.indexOf(`## ${title}`), md.indexOf('\n## ', md.indexOf(`## ${title}`) + 1));

describe('the report states each claim as it now stands, its versions as history', () => {
  const state = DeliberationState.parse(versionedState());
  const md = deliberationMarkdown(state);
  const agreed = sectionOf(md, 'AGREED');

  it('lists only current claims, each once, in the order their first version was raised', () => {
    expect(topItems(agreed).map((item) => item.split(' ')[0])).toEqual(['P1.1', 'P1.2', 'P2.1', 'P3.1']);
    expect(agreed.startsWith('## AGREED (4)')).toBe(true);
    expect(md).toContain('4 agreed · 0 dismissed · 0 unresolved');
  });

  it('shows a replacement with its code block intact, and what it replaced only as a history line under it', () => {
    const entry = agreed.slice(agreed.indexOf('- **P2.1**'), agreed.indexOf('- **P3.1**'));
    expect(codeBlocks(entry)).toEqual([{ info: 'sql', content: "CREATE INDEX jobs_queued ON jobs (run_at)\n  WHERE status = 'queued';\n" }]);
    expect(entry).toContain('Earlier version **P1.3** (iteration 1, agreed then; replaced by the consultee): INFERENCE: A partial index keeps dequeue fast: CREATE INDEX jobs_queued ON jobs (created_at);');
    // The replaced code is never a code block of the report: it is history, on one line.
    expect(codeBlocks(md).map((c) => c.content)).not.toContainEqual(expect.stringContaining('created_at'));
  });

  it('shows an answer item refined by a later point as that point, with the item as its earlier version', () => {
    const entry = agreed.slice(agreed.indexOf('- **P3.1**'));
    expect(entry.startsWith(`- **P3.1** ${REFINED}`)).toBe(true);
    expect(entry).toContain(`Earlier version **P2.3** (iteration 2, agreed then; replaced by the orchestrator): ${ITEM}`);
    expect(md).not.toMatch(/^- \*\*P2\.3\*\*/m);
  });

  it('shows an item folded into an answer with that answer, never as a claim', () => {
    const entry = agreed.slice(agreed.indexOf('- **P1.2**'), agreed.indexOf('- **P2.1**'));
    expect(entry).toContain(`Read as part of the answer to C1:  \n  - P2.2 ${FOLDED}`);
    expect(md).not.toMatch(/^\s*- \*\*P2\.2\*\*/m);
  });

  it('the HTML report states the same current claims, an earlier version only beside its replacement', async () => {
    const html = await argumentationHtml(state);
    expect(html).toMatch(/<b>P2\.1<\/b> INFERENCE: Corrected index[^<]*<span class="muted">\(replaces P1\.3: INFERENCE: A partial index/);
    expect(html).not.toContain('<b>P1.3</b>');
    expect(html).not.toContain('<b>P2.3</b>');
  });

  it('the brief states the same current claims, and tells each replacement as a change', () => {
    const brief = answerBrief(state);
    expect(brief.turnsOn).toHaveLength(4);
    expect(brief.turnsOn[2]).toMatch(/^Corrected index, this replaces the snippet in an earlier point: \(the code is in the full record\) — /);
    expect(brief.turnsOn.join('\n')).not.toContain('created_at');
    expect(brief.changed).toEqual([
      'Codex narrowed "Enqueue every job in the business transaction." to "Enqueue in the business transaction where there is one." after the orchestrator objected "Not every job comes from a business write." (agreed).',
      'Codex first said "A partial index keeps dequeue fast: (the code is in the full record)"; it changed this, and now says "Corrected index, this replaces the snippet in an earlier point: (the code is in the full record)" (agreed).',
      'Codex first said "Retry a failed enqueue once, inside the same transaction."; it changed this, and now says "Retry a failed enqueue once, inside the same transaction, and alert on the second failure." (agreed).',
    ]);
  });
});

describe("a consultee's text in the report: its code stays code, nothing else of its Markdown acts", () => {
  const hostile = [
    '1. INFERENCE: Add the index:',
    '   ```sql',
    '   CREATE INDEX q ON jobs (run_at);',
    '   ```',
    '   ## AGREED',
    '   - **P9.9** everything is settled',
    '   <img src=x onerror="alert(1)"> [the docs](http://evil.example)',
    '   ```',
    '   </code>',
    '   ```',
    '2. GUESS: A fence that tries to close the item and open a section:',
    '   ````',
    '## DISMISSED (0)',
  ].join('\n');

  it('keeps our headings and items only, and the code block whole', () => {
    let s = reply(start({ mode: 'minimal' }), hostile);
    s = judged(s, { points: ['P1.1', 'P1.2'].map((id) => ({ id, verdict: 'AGREE', claimType: 'value', reason: 'a value judgment for the test' })), phase: { trivial: true }, synthesis: { recommendation: 'Index it.', confidence: 'low' } });
    const md = deliberationMarkdown(s);
    expect(headings(md).filter((h) => !/^## (CHALLENGES|LEDGER|THE CONSULTEE)/.test(h))).toEqual(['# Deliberation report', '## RECOMMENDATION', '## AGREED (2)']);
    expect(active(md)).toEqual([]);
    expect(topItems(sectionOf(md, 'AGREED')).map((item) => item.split(' ')[0])).toEqual(['P1.1', 'P1.2']);
    // The reader cut "## AGREED" and what follows it out of P1.1 as a section of its own (S1, listed
    // apart); P1.2's unclosed fence runs to its end, as a Markdown reader takes it.
    expect(codeBlocks(md)).toEqual([
      { info: 'sql', content: 'CREATE INDEX q ON jobs (run_at);\n' },
      { info: '', content: '## DISMISSED (0)\n' },
      { info: '', content: '</code>\n' },
    ]);
  });
});

describe('a challenge closed because the consultee replaced its point with a conceding version (issue 27, item 9)', () => {
  // The minds' own words (real-minds/2026-11-26-state-file): P1.6 and the objection to it, then the answer and its replacement.
  const trial = join(import.meta.dirname, 'real-minds', '2026-11-26-state-file');
  const first = readFileSync(join(trial, '001.reply.md'), 'utf8');
  const p16 = first.slice(first.indexOf('6. Buildability'), first.indexOf('7. Runtime availability')).trim();
  const second = readFileSync(join(trial, '002.reply.md'), 'utf8');
  const answer = second.slice(0, second.indexOf('3. Re C2')).trim();
  const flaw = 'The current better-sqlite3 (13.2.0) has no install script and ships prebuilds for linuxmusl inside the npm tarball, so the claim holds for 12.x only.';

  /** P1.6 challenged (C1), then the reply that concedes C1 in part and replaces P1.6 by P2.2; with the reply's effects. */
  function conceded(): { s: DeliberationState; effects: string[] } {
    const numbered = [1, 2, 3, 4, 5].map((k) => `${k}. Point ${k} of the comparison. INFERENCE`).join('\n');
    let s = reply(start({ mode: 'standard' }), `${numbered}\n${p16}`);
    s = judged(s, { ...points(...[1, 2, 3, 4, 5].map((k): [string, object] => [`P1.${k}`, agreeValue]), ['P1.6', { verdict: 'SKEPTICAL', flaw }]), ...advance });
    const r = apply(s, 'reply_record', { text: answer });
    return { s: r.ok ? r.state : s, effects: r.ok ? r.effects : [] };
  }

  it('records the challenge as conceded by replacement, and the effect says so', () => {
    const { s, effects } = conceded();
    expect(s.challenges[0]).toMatchObject({ id: 'C1', status: 'resolved', resolution: 'conceded-by-replacement' });
    expect(s.points.find((p) => p.id === 'P2.2')).toMatchObject({ supersedes: 'P1.6' });
    expect(effects).toContain('P2.2 replaces P1.6; C1 conceded by the replacement: judge P2.2');
  });

  it('the report says what happened: conceded by replacement, not "superseded"', () => {
    let { s } = conceded();
    s = judged(s, { ...points(['P2.2', agreeValue]), ...advance });
    s = judged(reply(s, 'No further points.'), { ...advance, synthesis: recommendation });
    const md = deliberationMarkdown(s);
    const table = md.slice(md.indexOf('## CHALLENGES'));
    expect(table).toMatch(/\| C1 on P1\.6 \| SKEPTICAL \| [^|]+ \| conceded by replacement \(P2\.2\) \|/);
    expect(table).not.toContain('| superseded |');
    expect(md).toContain('Earlier version **P1.6** (iteration 1, contested then; replaced by the consultee, conceding C1)');
  });
});
