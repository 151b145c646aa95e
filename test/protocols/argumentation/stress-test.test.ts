import { describe, expect, it } from 'vitest';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { buildConsulteePrompt, contradictingEffects, statusView } from '../../../protocols/argumentation/index.js';
import { advance, agreeValue, judge, judged, points, recommendation, refusedWith, reply, reportOf, skeptical, start, withTwoPoints } from './helpers.js';

const warrant = { phase: { stressTestWarranted: true } };
const warrantAndAdvance = { phase: { stressTestWarranted: true, advance: true } };
const record = { stressTest: { objection: 'Redis licensing changed', severity: 'mitigable', response: 'Valkey is a drop-in fork' } };
const standard = () => withTwoPoints({ mode: 'standard' });
const effects = (r: ReturnType<typeof judge>) => (r.ok ? r.effects : []);

describe('stress test', () => {
  it('a warrant persists and says why it cannot run yet', () => {
    const r = judge(standard(), { ...points(['P1.1', skeptical]), ...warrant });
    expect(r.ok && r.state.stressTest).toMatchObject({ warranted: true, required: false });
    expect(effects(r)).toContain("stress test warranted; not yet: it runs once every point in play is Agreed (not yet: P1.1, P1.2), or at the latest in CONSTRUCTIVE's extension (n=3)");
    expect(r.ok && statusView(r.state).stressTest).toMatchObject({ warranted: true, blocker: expect.stringContaining('P1.1, P1.2') });
  });

  it('the advance says why a warranted test did not run', () => {
    const s = judged(standard(), { ...points(['P1.1', skeptical]), ...warrant });
    const r = judge(s, { ...points(['P1.2', agreeValue]), ...advance });
    expect(effects(r)).toContain("stress test warranted but not run: it runs once every point in play is Agreed (not yet: P1.1), or at the latest in CONSTRUCTIVE's extension (n=3)");
    expect(r.ok && r.state.stressTest).toMatchObject({ warranted: true, required: false });
  });

  it('a warrant and an advance in one judgment say why the test waits once', () => {
    const r = judge(standard(), { ...points(['P1.1', skeptical], ['P1.2', agreeValue]), phase: { advance: true, stressTestWarranted: true } });
    expect(effects(r).filter((e) => e.startsWith('stress test'))).toEqual(["stress test warranted; not yet: it runs once every point in play is Agreed (not yet: P1.1), or at the latest in CONSTRUCTIVE's extension (n=3)"]);
  });

  it('becomes required at the CONSTRUCTIVE advance once every live point is Agreed, extends CONSTRUCTIVE, and is recorded only once asked', () => {
    let s = judged(standard(), { ...points(['P1.1', skeptical], ['P1.2', agreeValue]), ...warrantAndAdvance });
    s = reply(s, 'I concede C1.\n\n1. Both options fit a five-person team, see P1.2. INFERENCE');
    expect(s.buckets.dismissed[0]).toMatchObject({ pointId: 'P1.1', tag: 'CONCEDED' });
    // Not asked yet: recording it is refused, and says what blocks it.
    const early = judge(s, { ...points(['P2.1', agreeValue]), ...record });
    expect(early.ok && early.refused?.[0]).toMatchObject({ rule: 'stress-test-not-asked', message: expect.stringContaining('warrant it') });
    const r = judge(s, { ...points(['P2.1', agreeValue]), ...advance });
    expect(effects(r)).toContain('stress test required: the next prompt asks for the strongest objection');
    s = r.ok ? r.state : s;
    expect([s.n, s.phase, s.extendedConstructive, s.stressTest.required]).toEqual([3, 'CONSTRUCTIVE', true, true]);
    expect(effects(r)).toContain('extended CONSTRUCTIVE at n=3 (required stress test not run)');
    expect(buildConsulteePrompt(s, 'next')).toContain('Stress test: give the single strongest objection');
    expect(statusView(s).stressTest).toMatchObject({ required: true });
    s = reply(s, '1. Strongest objection: Redis licensing changed, against P1.2. EVIDENCE: redis.io/legal');
    s = judged(s, { ...points(['P3.1', agreeValue]), ...record });
    expect(s.stressTest).toMatchObject({ objection: 'Redis licensing changed', severity: 'mitigable', iter: 3 });
    expect(statusView(s).stressTest).toEqual({ ran: true, severity: 'mitigable' });
    refusedWith(judge(s, { stressTest: { objection: 'x', severity: 'fatal', response: 'y' } }), 'stress-test-done');
    s = judged(s, advance);
    expect([s.n, s.phase]).toEqual([4, 'DEVELOPMENT']);
  });

  it('a warrant when everything is already Agreed makes it required at the very next advance, with no extension needed', () => {
    let s = judged(standard(), { ...points(['P1.1', agreeValue], ['P1.2', agreeValue]), ...warrantAndAdvance });
    expect([s.n, s.stressTest.required]).toEqual([2, true]);
    s = judged(reply(s, '1. Strongest objection: licensing, on P1.1. INFERENCE'), { ...points(['P2.1', agreeValue]), stressTest: { ...record.stressTest, severity: 'fatal' } });
    expect(s.surfacedQuestions[0]?.text).toContain('fatal objection');
    s = judged(s, advance);
    expect([s.n, s.phase, s.extendedConstructive]).toEqual([3, 'DEVELOPMENT', false]);
  });

  it('after CONSTRUCTIVE a warrant says it cannot run any more', () => {
    let s = judged(standard(), { ...points(['P1.1', skeptical], ['P1.2', agreeValue]), ...advance });
    s = judged(reply(s, 'Re C1: holds. INFERENCE'), { challenges: [{ id: 'C1', verdict: 'accepted', claimType: 'value', reason: 'warm restarts matter to this team' }], ...advance });
    expect(s.phase).toBe('DEVELOPMENT');
    const r = judge(reply(s, 'No further points.'), warrant);
    expect(effects(r)).toEqual(['stress test warranted, but it cannot run: CONSTRUCTIVE is over (it runs only there)']);
    expect(refusedWith(judge(reply(s, 'No further points.'), record), 'phase-closed')).toEqual(['delib_judge']);
  });

  it('a required test not recorded before CONSTRUCTIVE ends lapses: the advance, the status and the report say so', () => {
    let s = judged(standard(), { ...points(['P1.1', agreeValue], ['P1.2', agreeValue]), ...warrantAndAdvance });
    expect([s.n, s.stressTest.required]).toEqual([2, true]);
    // Asked for at n=2, not recorded: CONSTRUCTIVE is extended once for it, then it ends.
    s = judged(reply(s, 'No further points.'), advance);
    expect([s.n, s.phase, s.extendedConstructive]).toEqual([3, 'CONSTRUCTIVE', true]);
    const r = judge(reply(s, 'No further points.'), advance);
    expect(effects(r)).toContain('the required stress test was not recorded before CONSTRUCTIVE ended: it lapses (the report says so)');
    s = r.ok ? r.state : s;
    expect([s.n, s.phase, s.stressTest.lapsed]).toEqual([4, 'DEVELOPMENT', true]);
    expect(statusView(s).stressTest).toEqual({ lapsed: 'required, but CONSTRUCTIVE ended before it was recorded' });
    s = reply(s, 'No further points.');
    expect(refusedWith(judge(s, record), 'phase-closed')).toEqual(['delib_judge']);
    expect(effects(judge(s, warrant))).toEqual(['stress test warranted, but it cannot run: CONSTRUCTIVE is over (it runs only there)']);
    s = judged(s, { ...advance, synthesis: recommendation });
    expect(s.status).toBe('terminated');
    expect(reportOf(s)).toContain('Stress test: not run (asked for, but CONSTRUCTIVE ended before it was recorded: it lapsed).');
  });

  describe('the case it exists for: the consultee switched sides and option A had no advocate (issue 27, item 7)', () => {
    const ASK = 'Stress test: give the single strongest objection';
    const REQUIRED = 'stress test required: the next prompt asks for the strongest objection';
    const LAPSES = 'the required stress test was not recorded before CONSTRUCTIVE ended: it lapses (the report says so)';
    const accept = { challenges: [{ id: 'C1', verdict: 'accepted', claimType: 'value', reason: 'a stale lock after a crash does block every job' }] };
    const objection = { stressTest: { objection: 'A lock-free per-job file makes the lock question moot', severity: 'mitigable', response: 'B still needs the load test' } };

    /** n=2 judged: Codex switched from A to B; the orchestrator objects to the switch, warrants the test and advances, in one call. */
    function switchedSides(): { s: DeliberationState; effects: string[] } {
      let s = reply(start({ mode: 'standard' }), '1. Option A, a lock file plus atomic rename, is enough for twelve jobs on one host. INFERENCE\n2. Option B, SQLite, adds a native dependency the image cannot build. INFERENCE');
      s = judged(s, { ...points(['P1.1', agreeValue], ['P1.2', agreeValue]), ...advance });
      s = reply(s, '1. I switch sides: B is the safer choice, since a stale lock left by a crash blocks every job under A. INFERENCE\n2. node:sqlite needs no build step on Node 22. INFERENCE');
      const r = judge(s, { ...points(['P2.1', { verdict: 'SKEPTICAL', flaw: 'A stale lock can be removed by age, and no crash case is shown.' }], ['P2.2', agreeValue]), phase: { advance: true, stressTestWarranted: true } });
      return { s: r.ok ? r.state : s, effects: r.ok ? r.effects : [] };
    }

    it('the one extension is kept for it: its prompt asks for the strongest objection beside the dispute opened in the same call', () => {
      const { s, effects } = switchedSides();
      expect([s.n, s.phase, s.extendedConstructive]).toEqual([3, 'CONSTRUCTIVE', true]);
      expect(effects).toContain(REQUIRED);
      expect(effects.filter((e) => e.startsWith('stress test'))).toEqual([REQUIRED]);
      const prompt = buildConsulteePrompt(s, 'next');
      expect(prompt).toContain('C1 (SKEPTICAL) on P2.1');
      expect(prompt).toContain(ASK);
      // Codex answers both in the extension; the test runs before CONSTRUCTIVE ends.
      let t = reply(s, 'Re C1: a crash between create and unlink leaves the lock, and an age check needs a clock both jobs trust. INFERENCE\n\n1. Strongest objection: a lock-free per-job file makes the lock question moot. INFERENCE');
      t = judged(t, { ...accept, ...points(['P3.1', agreeValue]), ...objection });
      expect(t.stressTest).toMatchObject({ severity: 'mitigable', iter: 3 });
      const r = judge(t, advance);
      expect(r.ok && [r.state.n, r.state.phase, r.state.stressTest.lapsed]).toEqual([4, 'DEVELOPMENT', undefined]);
    });

    it('no result says both that the test is required and that it lapses', () => {
      const { s } = switchedSides();
      // The extension's reply settles C1 but carries no objection; the warrant is repeated with the advance.
      const r = judge(reply(s, 'Re C1: I concede C1.'), { phase: { advance: true, stressTestWarranted: true } });
      const effects = r.ok ? r.effects : [];
      expect(effects).toContain(LAPSES);
      expect(effects).not.toContain(REQUIRED);
      expect(contradictingEffects(effects)).toEqual([]);
    });

    it('warranted only after the extension\'s prompt was answered: it says it cannot run, once, and nothing lapses', () => {
      let s = judged(standard(), { ...points(['P1.1', skeptical], ['P1.2', agreeValue]), ...advance });
      s = judged(reply(s, 'Re C1: warm restarts matter here. INFERENCE'), { challenges: [{ id: 'C1', verdict: 'rebutted', reason: 'a cold cache refills in seconds' }], ...advance });
      expect([s.n, s.phase]).toEqual([3, 'CONSTRUCTIVE']);
      s = reply(s, 'I concede C1.');
      const r = judge(s, { phase: { advance: true, stressTestWarranted: true } });
      const effects = r.ok ? r.effects : [];
      expect(effects.filter((e) => /stress test|lapses/.test(e))).toEqual(["stress test warranted, but it cannot run: CONSTRUCTIVE's last prompt (iteration 3) was answered without it"]);
      expect(r.ok && r.state.stressTest.lapsed).toBeFalsy();
    });
  });

  it('minimal mode refuses a warrant', () => {
    refusedWith(judge(withTwoPoints(), warrant), 'mode-minimal');
  });
});
