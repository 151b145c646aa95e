import { describe, expect, it } from 'vitest';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { nextLines, phaseFor } from '../../../protocols/argumentation/index.js';
import { advance, agreeValue, apply, judge, judged, points, refusedWith, reply, reportOf, skeptical, start, step, withTwoPoints } from './helpers.js';

const rebut = { challenges: [{ id: 'C1', verdict: 'rebutted', reason: 'the argument does not change the facts' }] };

/** One round in which the consultee defends C1 and the orchestrator rebuts (C1 stays open), then advances. */
function holdRound(s: DeliberationState): DeliberationState {
  return judged(reply(s, 'Re C1: still holds. INFERENCE'), { ...rebut, ...advance });
}

/** n=2 with C1 open on P1.1 and P1.2 agreed. */
function contested(mode: 'standard' | 'minimal' = 'standard'): DeliberationState {
  return judged(withTwoPoints({ mode }), { ...points(['P1.1', skeptical], ['P1.2', agreeValue]), ...advance });
}

describe('phase function', () => {
  it('maps n to CONSTRUCTIVE, DEVELOPMENT, CRYSTALLIZATION', () => {
    expect([1, 2, 3, 5, 6, 8].map(phaseFor)).toEqual(['CONSTRUCTIVE', 'CONSTRUCTIVE', 'DEVELOPMENT', 'DEVELOPMENT', 'CRYSTALLIZATION', 'CRYSTALLIZATION']);
  });

  it('refuses to advance without a valid reply', () => {
    const legal = refusedWith(judge(start(), advance), 'valid-reply-required');
    expect(legal).toEqual(['delib_consult']);
  });

  it('the default mode is minimal', () => {
    expect([start().mode, start().phase]).toEqual(['minimal', 'CONSTRUCTIVE']);
  });
});

describe('extended CONSTRUCTIVE and the cap', () => {
  it('extends to n=3 when a dispute is unaddressed at the end of n=2, then runs to the cap of 8', () => {
    let s = holdRound(contested());
    expect([s.n, s.phase, s.extendedConstructive]).toEqual([3, 'CONSTRUCTIVE', true]);
    const phases: string[] = [];
    while (s.status === 'active') {
      s = holdRound(s);
      phases.push(`${s.n}:${s.phase}`);
    }
    expect(phases).toEqual(['4:DEVELOPMENT', '5:DEVELOPMENT', '6:CRYSTALLIZATION', '7:CRYSTALLIZATION', '8:CRYSTALLIZATION', '8:CRYSTALLIZATION']);
    expect(s.termination).toMatchObject({ reason: 'iteration-cap', iter: 8 });
    expect(s.buckets.unresolved[0]).toMatchObject({ pointId: 'P1.1', status: 'open-at-end' });
  });

  it('minimal mode keeps the phases: the same unanswered dispute at n=2 extends CONSTRUCTIVE as in standard (issue 21, item 3)', () => {
    for (const mode of ['standard', 'minimal'] as const) {
      const r = judge(reply(contested(mode), 'Re C1: still holds. INFERENCE'), { ...rebut, ...advance });
      expect(r.ok && [mode, r.state.n, r.state.phase, r.state.extendedConstructive]).toEqual([mode, 3, 'CONSTRUCTIVE', true]);
      expect(r.ok && r.effects).toContain('extended CONSTRUCTIVE at n=3 (a dispute left unaddressed)');
      // Exactly one extra iteration, then DEVELOPMENT.
      expect([mode, holdRound(r.ok ? r.state : contested()).phase]).toEqual([mode, 'DEVELOPMENT']);
    }
  });

  it('minimal and quick modes refuse the stress test', () => {
    const stressTest = { objection: 'o', severity: 'fatal', response: 'r' };
    refusedWith(judge(withTwoPoints({ mode: 'minimal' }), { stressTest }), 'mode-minimal');
    refusedWith(judge(withTwoPoints({ mode: 'quick' }), { stressTest }), 'mode-quick');
  });
});

describe('format failures', () => {
  it('do not increment n nor burn a defense window; two in a row exit early (quality)', () => {
    let s = contested();
    s = reply(s, 'Well, it depends on many things.');
    expect([s.n, s.replyRecorded, s.counters.consecutiveFormatFailures]).toEqual([2, false, 1]);
    expect(s.challenges[0]).toMatchObject({ status: 'open', reminderSent: false });
    refusedWith(judge(s, advance), 'valid-reply-required');
    expect(reply(s, 'Re C1: warm restarts. INFERENCE').counters.consecutiveFormatFailures).toBe(0);
    s = reply(s, '1. I verified it and it works.');
    expect(s.status).toBe('terminated');
    expect(s.termination?.reason).toBe('early-exit-quality');
  });

  it('the orchestrator may declare a failure the reader cannot see', () => {
    const s = step(contested(), 'reply_record', { text: '1. Warm restarts matter. INFERENCE', formatFailure: 'answered C1 without its id' });
    expect(s.counters.lastFailure).toBe('answered C1 without its id');
    expect(s.points).toHaveLength(2);
  });

  it('"No further points." is a valid reply, not a failure and not a point', () => {
    const s = reply(contested(), 'Re C1: still holds. INFERENCE\n\nNo further points.');
    expect([s.replyRecorded, s.counters.consecutiveFormatFailures, s.points.length]).toEqual([true, 0, 2]);
  });
});

describe('late content by phase', () => {
  it('DEVELOPMENT sends new arguments to Not Evaluated whatever their label, but admits extensions and evidence on existing points', () => {
    const s0 = holdRound(holdRound(contested()));
    expect([s0.n, s0.phase]).toEqual([4, 'DEVELOPMENT']);
    const s = reply(s0, 'Re C1: holds. INFERENCE\n1. A brand new idea: use SQLite. GUESS\n2. Extending P1.2: ops cost is lower. INFERENCE\n3. Benchmarks on P1.1 show 1M ops/s. EVIDENCE: bench.txt:3\n4. Benchmarks show 2M ops/s. EVIDENCE: bench.txt:4');
    expect(s.points.slice(2).map((p) => [p.id, p.status])).toEqual([
      ['P4.1', 'not-evaluated'],
      ['P4.2', 'pending-triage'],
      ['P4.3', 'pending-triage'],
      ['P4.4', 'not-evaluated'],
    ]);
    expect(s.notEvaluated.map((n) => [n.ref, n.reason])).toEqual([
      ['P4.1', 'phase-violation'],
      ['P4.4', 'phase-violation'],
    ]);
  });

  it('DEVELOPMENT admits evidence about a ledger fact the point cites (F1), not one citing a fact that does not exist', () => {
    // A real consultee measured again what F7 recorded, citing only the fact: evidence on existing material (2026-11-24-review, 005).
    const withFact = judged(contested(), { ledger: [{ action: 'add', text: 'the bench gave 7 sockets open', tag: 'codex-unverified' }] });
    const s0 = holdRound(holdRound(withFact));
    expect([s0.phase, s0.ledger.map((f) => f.id)]).toEqual(['DEVELOPMENT', ['F1']]);
    const s = reply(s0, 'Re C1: holds. INFERENCE\n1. F1 is a race: 8 more runs gave 6 and 7. EVIDENCE: runs.txt:1\n2. F9 is wrong too. EVIDENCE: runs.txt:2');
    expect(s.points.slice(2).map((p) => [p.id, p.status])).toEqual([
      ['P4.1', 'pending-triage'],
      ['P4.2', 'not-evaluated'],
    ]);
  });

  it("a late point that cites an earlier one but argues something new: the orchestrator's triage new-argument sends it to Not Evaluated", () => {
    const s0 = holdRound(holdRound(contested()));
    expect(s0.phase).toBe('DEVELOPMENT');
    const s = reply(s0, "Re C1: holds. INFERENCE\n1. Unlike P1.2's cost argument, this is a separate argument: Redis needs a second on-call skill. INFERENCE");
    expect(s.points.find((p) => p.id === 'P4.1')?.status).toBe('pending-triage');
    expect(s.scope.newPoints).toBe(1);
    const r = judge(s, { ...rebut, ...points(['P4.1', { triage: 'new-argument', reason: 'a staffing argument, independent of the cost one it names' }]) });
    expect(r.ok && r.effects).toContain('P4.1 -> Not Evaluated (phase-violation: a new argument in DEVELOPMENT, by your triage)');
    const after = judged(s, { ...rebut, ...points(['P4.1', { triage: 'new-argument', reason: 'a staffing argument, independent of the cost one it names' }]) });
    expect(after.notEvaluated).toEqual([expect.objectContaining({ ref: 'P4.1', reason: 'phase-violation', note: 'a staffing argument, independent of the cost one it names' })]);
    expect(after.points.find((p) => p.id === 'P4.1')).toMatchObject({ status: 'not-evaluated', triage: 'new-argument' });
    // As the engine's own routing: not a new point for convergence; no verdict afterwards.
    expect(after.scope.newPoints).toBe(0);
    refusedWith(judge(after, points(['P4.1', agreeValue])), 'not-evaluable');
    // It needs its reason, like any triage that sets a point aside.
    refusedWith(judge(s, points(['P4.1', { triage: 'new-argument' }])), 'substantive-reason');
  });

  it('new-argument is refused where new arguments are admitted (CONSTRUCTIVE, quick), and in CRYSTALLIZATION goes to phase-closed', () => {
    expect(refusedWith(judge(reply(start(), '1. A point. INFERENCE'), points(['P1.1', { triage: 'new-argument', reason: 'it is a brand new argument' }])), 'phase-admits-new-arguments')).toEqual(['triage', 'verdict']);
    refusedWith(judge(reply(start({ mode: 'quick' }), '1. A point. INFERENCE'), points(['P1.1', { triage: 'new-argument', reason: 'it is a brand new argument' }])), 'phase-admits-new-arguments');
    let s = contested();
    for (let i = 0; i < 4; i += 1) s = holdRound(s);
    s = reply(s, 'Re C1: holds. INFERENCE\n1. Measured against P1.1: a new failure mode in failover. EVIDENCE: bench.txt:9');
    expect(s.points.find((p) => p.id === 'P6.1')).toMatchObject({ status: 'pending-triage', needsDecisive: true });
    s = judged(s, points(['P6.1', { triage: 'new-argument', reason: 'failover is a new argument, not evidence on P1.1' }]));
    expect(s.notEvaluated.find((n) => n.ref === 'P6.1')?.reason).toBe('phase-closed');
  });

  it('CRYSTALLIZATION closes new arguments; only decisive evidence stays in play', () => {
    let s = contested();
    for (let i = 0; i < 4; i += 1) s = holdRound(s);
    expect([s.n, s.phase]).toEqual([6, 'CRYSTALLIZATION']);
    s = reply(s, 'Re C1: holds. INFERENCE\n1. New idea. GUESS\n2. Measured p99 2ms against P1.1. EVIDENCE: bench.txt:9\n3. More numbers on P1.1. EVIDENCE: bench.txt:10\n4. A trace of P1.1 failing. EVIDENCE: trace.txt:2\n5. Inference on P1.1. INFERENCE');
    expect(s.notEvaluated.map((n) => [n.ref, n.reason])).toEqual([
      ['P6.1', 'phase-closed'],
      ['P6.5', 'phase-closed'],
    ]);
    // A verdict on such evidence must say it is decisive; triaged alone without it, it is not evaluated.
    expect(refusedWith(judge(s, points(['P6.2', agreeValue])), 'decisive-evidence')).toEqual(['triage', 'verdict']);
    s = judged(s, points(['P6.2', { triage: 'in-scope', decisive: true }], ['P6.3', { triage: 'in-scope' }], ['P6.4', { ...agreeValue, decisive: true }]));
    expect(s.points.find((p) => p.id === 'P6.2')?.status).toBe('pending-evaluation');
    expect(s.notEvaluated.find((n) => n.ref === 'P6.3')?.reason).toBe('non-decisive-evidence');
    expect(s.points.find((p) => p.id === 'P6.4')?.status).toBe('agreed');
  });
});

describe('termination and deadlock', () => {
  it('converges when nothing is open, no new points arrive and the disputed list is unchanged', () => {
    let s = judged(withTwoPoints(), { ...points(['P1.1', agreeValue], ['P1.2', agreeValue]), ...advance });
    expect(s.n).toBe(2);
    s = judged(reply(s, 'No further points.'), advance);
    expect(s.termination?.reason).toBe('convergence');
    expect(refusedWith(apply(s, 'reply_record', { text: '1. x' }), 'deliberation-terminated')).toEqual(['delib_synthesize']);
  });

  it('a new point keeps it going; a judgment that ends it can carry the synthesis', () => {
    let s = judged(withTwoPoints(), { ...points(['P1.1', agreeValue], ['P1.2', agreeValue]), ...advance });
    s = judged(reply(s, '1. Both hold for a team of five. INFERENCE'), { ...points(['P2.1', agreeValue]), ...advance });
    expect([s.n, s.status]).toEqual([3, 'active']);
    const recommendation = { recommendation: 'Memcached: simpler for a small team.', confidence: 'high' };
    const r = judge(reply(s, 'Nothing further.'), { ...advance, synthesis: recommendation });
    expect(r.ok && reportOf(r.state)).toContain('Memcached: simpler for a small team.');
    expect(r.ok && r.state.recommendation).toMatchObject({ text: recommendation.recommendation, confidence: 'high' });
  });

  it('early exit (trivial) only by n=2 with nothing disputed', () => {
    const s = judged(withTwoPoints(), points(['P1.1', skeptical], ['P1.2', agreeValue]));
    refusedWith(judge(s, { phase: { trivial: true } }), 'early-exit-trivial');
    const t = judged(withTwoPoints(), points(['P1.1', agreeValue], ['P1.2', agreeValue]));
    expect(judged(t, { phase: { trivial: true } }).termination?.reason).toBe('early-exit-trivial');
  });

  it('deadlock after 3+ iterations: missing data -> Blocked + surfaced question; definitional retries once; criteria -> tradeoff', () => {
    let s = holdRound(holdRound(contested()));
    expect(s.n).toBe(4);
    s = reply(s, 'Re C1: holds. INFERENCE');
    const deadlock = { id: 'C1', verdict: 'deadlock', reason: 'neither side has latency numbers' };
    expect(s.n - s.challenges[0]!.openedIter).toBe(3);
    refusedWith(judge(s, { challenges: [{ ...deadlock, deadlock: 'missing-data', measurement: 'p99' }] }), 'blocked-needs-measurement');
    const blocked = judged(s, { challenges: [{ ...deadlock, deadlock: 'missing-data', measurement: 'p99 under load', threshold: '5 ms', verdictChange: 'above 5 ms the point falls' }] });
    expect(blocked.buckets.unresolved[0]).toMatchObject({ pointId: 'P1.1', status: 'blocked' });
    expect(blocked.surfacedQuestions[0]?.pointId).toBe('P1.1');
    const defn = judged(s, { challenges: [{ ...deadlock, deadlock: 'definitional', reason: 'cache means different things' }] });
    expect(defn.challenges[0]).toMatchObject({ status: 'open', clarificationRequested: true });
    const tradeoff = judged(s, { challenges: [{ ...deadlock, deadlock: 'criteria', reason: 'speed versus simplicity' }] });
    expect(tradeoff.buckets.unresolved[0]).toMatchObject({ status: 'tradeoff' });
    expect(tradeoff.surfacedQuestions).toHaveLength(1);
  });

  it('refuses a deadlock classification too early', () => {
    const s = reply(contested(), 'Re C1: holds. INFERENCE');
    const legal = refusedWith(judge(s, { challenges: [{ id: 'C1', verdict: 'deadlock', deadlock: 'criteria', reason: 'speed versus simplicity' }] }), 'deadlock-too-early');
    expect(legal).toEqual(['accepted', 'rejected', 'rebutted']);
  });
});

describe('next says when the advance can end the deliberation (so the synthesis goes in the right judgment)', () => {
  const judgeLine = (s: DeliberationState) => nextLines(s).find((line) => line.startsWith('delib_judge'))!;
  const accept = { challenges: [{ id: 'C1', verdict: 'accepted', claimType: 'value', reason: 'warm restarts matter for this team' }] };

  it('new points: another iteration follows, and it does', () => {
    const s = withTwoPoints({ mode: 'minimal' });
    expect(judgeLine(s)).toMatch(/then phase\.advance \(new points: another iteration; a synthesis given now ends it if Codex's reply then has nothing further\)$/);
    expect(judged(s, { ...points(['P1.1', agreeValue], ['P1.2', agreeValue]), ...advance }).status).toBe('active');
  });

  it('a challenge open at the last advance, now answered: another iteration follows even when accepted; then a quiet reply ends it', () => {
    let s = reply(contested('minimal'), 'Re C1: warm restarts matter weekly. INFERENCE');
    expect(judgeLine(s)).toMatch(/phase\.advance \(Codex answers the challenges' outcome: another iteration; a synthesis given now ends it if Codex's reply then has nothing further\)$/);
    s = judged(s, { ...accept, ...advance });
    expect(s.status).toBe('active');
    s = reply(s, 'Nothing further.');
    expect(judgeLine(s)).toMatch(/phase\.advance: ends the deliberation \(convergence\) unless a challenge stays open: add synthesis$/);
    expect(judged(s, advance).status).toBe('terminated');
  });
});
