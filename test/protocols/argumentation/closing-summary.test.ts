import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closingSummary, deliberationMarkdown } from '../../../protocols/argumentation/index.js';
import { DeliberationState } from '../../../schemas/argumentation.js';
import { HOSTILE, LONG_POINT, argumentationState } from '../report/fixtures.js';
import { advance, agreeValue, judged, points, reply, summaryOf, withTwoPoints } from './helpers.js';

let state: DeliberationState;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ state, cleanup } = await argumentationState('parley-summary-'));
}, 30_000);

afterAll(() => cleanup());

describe('the closing summary: what the orchestrator hands to the user as it is', () => {
  it('says the answer, its confidence and caveats, each bucket one line per current claim, the questions and the arbiter', () => {
    const summary = closingSummary(state);
    expect(summary).toMatchObject({
      question: expect.stringMatching(/^Should the cache use Redis or Memcached\? <script>/),
      answer: expect.stringMatching(/^Use Memcached for the cache\. === ## Injected heading - fake step <script>/),
      confidence: 'medium',
      caveats: ['Revisit if warm restarts start to matter.', expect.stringMatching(/^A caveat with <script>/)],
      agreed: [
        'P1.1 persistence matters only for warm restarts after deploys. — textual evidence',
        expect.stringMatching(/^P1\.2 Memcached is simpler to operate: it has no persistence, .*… — value judgment$/),
        'P1.4 A single-host cache dies with its host whichever you pick. INFERENCE — follows from F1',
      ],
      dismissed: [expect.stringMatching(/^P1\.3 <script>.* — CONCEDED: The consultee conceded C2 in iteration 2\.$/)],
      unresolved: ['P1.5 Redis is faster than Memcached for this workload. GUESS — blocked: No benchmark backs the speed claim. (no numbers on either side)'],
      notEvaluated: ['phase-violation: P4.1, P4.2'],
      questions: ['Q1 What p99 latency does the service need?'],
      arbiter: ['flagged 1 of 5', expect.stringMatching(/^P1\.2: A value claim resting on taste\. <script>/), expect.stringMatching(/^remarks: The Memcached side was never argued/)],
      record: 'deliberation report-delib: standard mode, consultee-proposes, 5 iterations, ended by convergence',
    });
  });

  it('is JSON of short one-line strings, not Markdown: nothing a reader must unescape, no line past its bound', () => {
    const summary = closingSummary(state);
    const lines = Object.values(summary).flatMap((value) => (Array.isArray(value) ? value : [value]));
    for (const line of lines) expect(line).not.toMatch(/\n|\\[<>*_[\]`#|]/);
    expect(Math.max(...summary.agreed.map((line) => line.length))).toBeLessThan(LONG_POINT.length / 3);
    expect(JSON.stringify(summary)).not.toContain('END-OF-P1.2');
    // Every claim and what was said of it in 2,500 bytes or less (the full report: 4,700).
    expect(Buffer.byteLength(JSON.stringify(summary))).toBeLessThan(2_500);
    expect(Buffer.byteLength(deliberationMarkdown(state))).toBeGreaterThan(4_500);
    expect(HOSTILE.length).toBeGreaterThan(100);
  });

  it('keeps a confidence given per aspect, in the summary and in the report', () => {
    let s = judged(withTwoPoints(), { ...points(['P1.1', agreeValue], ['P1.2', agreeValue]), ...advance });
    const aspects = { 'the choice': 'high', 'the deployment': 'medium' };
    s = judged(reply(s, 'No further points.'), { ...advance, synthesis: { recommendation: 'Redis.', confidence: 'medium', aspects } });
    expect(s.recommendation).toEqual({ text: 'Redis.', confidence: 'medium', aspects, caveats: [] });
    expect(summaryOf(s).confidence).toBe('medium (high on the choice, medium on the deployment)');
    expect(deliberationMarkdown(s)).toContain('Confidence: **medium** (high on the choice, medium on the deployment)');
  });

  it('reads a state file written before the report was rendered on demand, dropping the copy it kept', () => {
    const old = { ...state, report: { json: { question: state.question, agreed: [] }, markdown: '# an old report, stale' } };
    const parsed = DeliberationState.parse(old);
    expect(parsed.report).toEqual({});
    expect(closingSummary(parsed).agreed).toHaveLength(3);
    expect(deliberationMarkdown(parsed)).not.toContain('an old report');
  });
});
