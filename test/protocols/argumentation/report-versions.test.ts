import { describe, expect, it } from 'vitest';
import { closingSummary, deliberationMarkdown } from '../../../protocols/argumentation/index.js';
import { DeliberationState } from '../../../schemas/argumentation.js';
import { codeBlocks, topItems } from '../report/markdown-ast.js';
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

  it('the summary states the same current claims, saying which they replaced', () => {
    const summary = closingSummary(state);
    expect(summary.agreed.map((line) => line.split(' ')[0])).toEqual(['P1.1', 'P1.2', 'P2.1', 'P3.1']);
    expect(summary.agreed[2]).toMatch(/^P2\.1 INFERENCE: Corrected index, .*WHERE status = 'queued'.* \(replaces P1\.3\) — value judgment$/);
    expect(summary.agreed[3]).toBe(`P3.1 ${REFINED} (replaces P2.3) — value judgment`);
    expect(JSON.stringify(summary)).not.toContain('created_at');
  });
});
