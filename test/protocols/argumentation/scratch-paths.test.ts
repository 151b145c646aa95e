import { describe, expect, it } from 'vitest';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { answerBrief, buildArbitrationPrompt, deliberationMarkdown } from '../../../protocols/argumentation/index.js';
import { argumentationHtml } from '../../../protocols/report/argumentation-html.js';
import { judged, points, reply, start } from './helpers.js';

/**
 * Issue 27, item 12, in the 2026-11-26 trial's words: Codex ran its checks in /tmp/codex-scratch, the
 * orchestrator its own in /tmp/orch-scratch, and the user's repository is /tmp/tm. The arbiter flagged
 * "the cited scratch path ... does not exist" and a fix that "rests only on the participant's own run".
 */
const QUESTION = 'Our nightly-jobs repo (/tmp/tm) loses cursor updates: twelve cron jobs run `npm run job -- <name>` on one Alpine host. Should we fix src/state.js with a lock file plus atomic rename, or move the state into SQLite?';
const REPLY = [
  "1. EVIDENCE: `writeFileSync` opens with the default flag 'w' (O_TRUNC) and writes in place (/tmp/tm/src/state.js:11). I reproduced this in a scratch copy, not in /tmp/tm, on local Node v20.20.2. I ran 12 processes, each calling `recordRun` 200 times, with STATE_FILE=/tmp/codex-scratch/state.json. Results: 46 SyntaxErrors.",
  '2. EVIDENCE, extends point 1: I wrote a concrete D implementation in a scratch copy (/tmp/codex-scratch/d/state.js; /tmp/tm untouched) and stress-tested it on Node v20.20.2: errors 0, 0 *.tmp leftovers.',
].join('\n');

function deliberated(): DeliberationState {
  let s = reply(start({ mode: 'standard', question: QUESTION }), REPLY);
  s = judged(s, {
    ledger: [{ action: 'add', text: 'One JSON file per job + temp/fsync/rename gives 200 for all 12 jobs with 0 errors.', tag: 'verified', reference: "I re-ran Codex's /tmp/codex-scratch/d/state.js under the same test: errors 0, j1=1200", label: 'rerun' }],
    ...points(
      ['P1.1', { verdict: 'AGREE', claimType: 'empirical', evidenceType: 'execution', evidence: '/tmp/orch-scratch/tm/race.sh on a copy of /tmp/tm: errors: 46', reason: 'my own run on a copy shows the torn reads' }],
      ['P1.2', { verdict: 'AGREE', claimType: 'empirical', evidenceType: 'execution', evidence: '@rerun: the same stress test, errors 0', reason: 'I re-ran the per-job version' }],
    ),
    phase: { trivial: true },
    synthesis: { recommendation: 'One JSON file per job, written with temp file + fsync + rename.', confidence: 'high', caveats: ['The temp-file sweep ran only in /tmp/codex-scratch/d: run it once on the image.'] },
  });
  return s;
}

describe("the consultee's scratch paths reach neither the arbiter, the report's claims nor the summary (issue 27, item 12)", () => {
  const s = deliberated();

  it('the arbiter sees each as what it is, and the user\'s and the judge\'s own paths as written', () => {
    const prompt = buildArbitrationPrompt(s);
    expect(prompt).not.toContain('codex-scratch');
    expect(prompt).toContain("STATE_FILE=<the author's scratch file state.json>");
    expect(prompt).toContain("(<the author's scratch file state.js>; /tmp/tm untouched)");
    expect(prompt).toContain('/tmp/tm/src/state.js:11');
    expect(prompt).toContain('/tmp/orch-scratch/tm/race.sh');
  });

  it("the arbiter's evidence lines say whose run each was", () => {
    const prompt = buildArbitrationPrompt(s);
    expect(prompt).toContain("P1.1 AGREED · empirical · evidence execution, the judge's own run: /tmp/orch-scratch/tm/race.sh on a copy of /tmp/tm: errors: 46 · reason: my own run on a copy shows the torn reads · its EVIDENCE label is the author's own check\n");
    expect(prompt).toContain("P1.2 AGREED · empirical · evidence execution, the judge's own run: F1: the same stress test, errors 0");
    expect(prompt).toMatch(/^F1 \[verified by the judge: I re-ran Codex's <the author's scratch file state\.js> under the same test: errors 0, j1=1200\] One JSON file per job/m);
    expect(prompt).toContain("a claim's own EVIDENCE label is a check only the author saw");
  });

  it("the report's claims and the summary say the same, in the consultee's name", async () => {
    const md = deliberationMarkdown(s);
    const agreed = md.slice(md.indexOf('## AGREED'), md.indexOf('\n## ', md.indexOf('## AGREED') + 1));
    expect(agreed).not.toContain('codex-scratch');
    expect(agreed).toContain("STATE_FILE=\\<the consultee's scratch file state.json\\>");
    expect(agreed).toContain('/tmp/tm/src/state.js:11');
    const brief = answerBrief(s);
    expect(JSON.stringify(brief)).not.toContain('codex-scratch');
    expect(brief.caveats).toEqual(["The temp-file sweep ran only in <the consultee's scratch folder d>: run it once on the image."]);
    const html = await argumentationHtml(s);
    const buckets = html.slice(html.indexOf('<h2>Buckets</h2>'), html.indexOf('<h2>', html.indexOf('<h2>Buckets</h2>') + 1));
    expect(buckets).not.toContain('codex-scratch');
  });
});
