import { describe, expect, it } from 'vitest';
import { deliberationMarkdown, staleReportItems } from '../../../protocols/argumentation/index.js';
import { mdBlocks } from '../../../protocols/markdown-blocks.js';
import { DeliberationState } from '../../../schemas/argumentation.js';
import { OLD_INDEX, versionedState } from './versions.js';

/** The report of a state with versions: P2.1 replaced P1.3, P3.1 refined the answer item P2.3, P2.2 is folded into C1's answer. */
const state = DeliberationState.parse(versionedState());
const md = deliberationMarkdown(state);
const none = { replacedShownAsCurrent: [], missing: [], duplicated: [], count: 0 };

/** The report with one claim item replaced by other lines. */
function withItem(id: string, lines: string): string {
  const start = md.indexOf(`- **${id}** `);
  const end = md.slice(start + 1).search(/\n(- \*\*|## )/) + start + 1;
  return md.slice(0, start) + lines + md.slice(end);
}

describe('staleReportItems: claims a report states that are no longer claims, or leaves out', () => {
  it('finds nothing in the report rendered from the state', () => {
    expect(staleReportItems(state, md)).toEqual(none);
  });

  it('finds the replaced version and the missing refinement in a report written before the versions were recorded', () => {
    // What a report file that was not rewritten would still say: P1.3 as agreed, P2.3 as agreed, no P3.1.
    const before = versionedState();
    const old = structuredClone(before);
    for (const p of old.points) {
      if (p.was?.agreed) {
        old.buckets.agreed.push(p.was.agreed);
        Object.assign(p, { status: 'agreed', supersededBy: undefined, was: undefined });
      }
    }
    old.points = old.points.filter((p) => p.id !== 'P3.1');
    old.buckets.agreed = old.buckets.agreed.filter((i) => i.pointId !== 'P3.1');
    const stale = staleReportItems(state, deliberationMarkdown(DeliberationState.parse(old)));
    expect(stale).toEqual({ replacedShownAsCurrent: ['P1.3', 'P2.3'], missing: ['P3.1'], duplicated: [], count: 3 });
  });

  it("finds a replaced version's words stated under the current id", () => {
    const shown = withItem('P2.1', `- **P2.1** ${mdBlocks(OLD_INDEX, '  ')}\n`);
    expect(staleReportItems(state, shown)).toEqual({ replacedShownAsCurrent: ['P2.1'], missing: ['P2.1'], duplicated: [], count: 2 });
  });

  it('finds an item folded into an answer stated as a claim, a claim stated twice, and one left out', () => {
    const folded = withItem('P1.1', `${md.slice(md.indexOf('- **P1.1** '), md.indexOf('- **P1.2** '))}- **P2.2** Jobs created by cron need no business transaction.\n`);
    expect(staleReportItems(state, folded)).toMatchObject({ replacedShownAsCurrent: ['P2.2'], count: 1 });
    const twice = withItem('P1.1', `${md.slice(md.indexOf('- **P1.1** '), md.indexOf('- **P1.2** ')).repeat(2)}`);
    expect(staleReportItems(state, twice)).toMatchObject({ duplicated: ['P1.1'], count: 1 });
    expect(staleReportItems(state, withItem('P3.1', ''))).toMatchObject({ missing: ['P3.1'], count: 1 });
  });

  it('reads the escaped Markdown back as written: backslashes, emphasis marks and code are the claim\'s own', () => {
    const tricky = structuredClone(state);
    tricky.points.find((p) => p.id === 'P1.1')!.text = '**Pin it.** EVIDENCE: infra/db.tf:7 "engine_version = \\"15.4\\"" \\ and `a_b`:\n```tf\nengine_version = "15.4" # \\"x\\" \\n\n```';
    expect(staleReportItems(tricky, deliberationMarkdown(tricky))).toEqual(none);
  });

  it('counts a claim in the wrong bucket as missing from its own', () => {
    const moved = withItem('P1.1', '').replace('## CHALLENGES', `## DISMISSED (1)\n\n${md.slice(md.indexOf('- **P1.1** '), md.indexOf('- **P1.2** '))}\n## CHALLENGES`);
    expect(staleReportItems(state, moved)).toMatchObject({ missing: ['P1.1'], count: 1 });
  });
});
