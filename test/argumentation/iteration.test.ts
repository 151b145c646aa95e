import { describe, expect, it } from 'vitest';
import type { DeliberationState } from '../../schemas/argumentation.js';
import { phaseFor } from '../../protocols/argumentation/index.js';
import { agreeValue, apply, refusedWith, skeptical, start, step, withTwoPoints } from './helpers.js';

/** One round in which the consultee defends C1 and the orchestrator rebuts, so C1 stays open. */
function holdRound(s: DeliberationState, extra = ''): DeliberationState {
  s = step(s, 'reply_record', { text: `Re C1: still holds. INFERENCE${extra}` });
  s = step(s, 'challenge_resolve', { challengeId: 'C1', verdict: 'rebutted', reason: 'the argument does not change the facts' });
  return s;
}

function contested(mode: 'standard' | 'minimal' = 'standard'): DeliberationState {
  let s = step(withTwoPoints({ mode }), 'point_evaluate', { pointId: 'P1.1', ...skeptical });
  s = step(s, 'point_evaluate', { pointId: 'P1.2', ...agreeValue });
  return step(s, 'iteration_advance', {});
}

describe('phase function', () => {
  it('maps n to CONSTRUCTIVE, DEVELOPMENT, CRYSTALLIZATION', () => {
    expect([1, 2, 3, 5, 6, 8].map(phaseFor)).toEqual(['CONSTRUCTIVE', 'CONSTRUCTIVE', 'DEVELOPMENT', 'DEVELOPMENT', 'CRYSTALLIZATION', 'CRYSTALLIZATION']);
  });

  it('refuses to advance without a valid reply', () => {
    const legal = refusedWith(apply(start(), 'iteration_advance', {}), 'valid-reply-required');
    expect(legal).toContain('reply_record');
  });
});

describe('extended CONSTRUCTIVE and the cap', () => {
  it('extends to n=3 when a dispute is unaddressed at the end of n=2, then runs to the cap of 8', () => {
    let s = holdRound(contested());
    s = step(s, 'iteration_advance', {});
    expect([s.n, s.phase, s.extendedConstructive]).toEqual([3, 'CONSTRUCTIVE', true]);
    const phases: string[] = [];
    while (s.status === 'active') {
      s = holdRound(s);
      s = step(s, 'iteration_advance', {});
      phases.push(`${s.n}:${s.phase}`);
    }
    expect(phases).toEqual(['4:DEVELOPMENT', '5:DEVELOPMENT', '6:CRYSTALLIZATION', '7:CRYSTALLIZATION', '8:CRYSTALLIZATION', '8:CRYSTALLIZATION']);
    expect(s.termination).toMatchObject({ reason: 'iteration-cap', iter: 8 });
    expect(s.buckets.unresolved[0]).toMatchObject({ pointId: 'P1.1', status: 'open-at-end' });
  });

  it('minimal mode runs no coverage extension', () => {
    let s = holdRound(contested('minimal'));
    s = step(s, 'iteration_advance', {});
    expect([s.n, s.phase, s.extendedConstructive]).toEqual([3, 'DEVELOPMENT', false]);
  });

  it('extends when a warranted stress test has not run; the stress test is recorded inside CONSTRUCTIVE', () => {
    let s = step(withTwoPoints(), 'point_evaluate', { pointId: 'P1.1', ...agreeValue });
    s = step(s, 'point_evaluate', { pointId: 'P1.2', ...agreeValue });
    s = step(s, 'iteration_advance', {});
    s = step(s, 'reply_record', { text: '1. Both hold up. INFERENCE' });
    s = step(s, 'point_triage', { pointId: 'P2.1', triage: 'in-scope', reason: 'a summary of the same answer' });
    s = step(s, 'point_evaluate', { pointId: 'P2.1', ...agreeValue });
    s = step(s, 'iteration_advance', { stressTestWarranted: true });
    expect([s.n, s.phase, s.extendedConstructive, s.stressTest.required]).toEqual([3, 'CONSTRUCTIVE', true, true]);
    s = step(s, 'reply_record', { text: '1. Strongest objection: Redis licensing changed. EVIDENCE: redis.io/legal' });
    s = step(s, 'point_triage', { pointId: 'P3.1', triage: 'in-scope', reason: 'licensing affects the choice' });
    s = step(s, 'point_evaluate', { pointId: 'P3.1', ...agreeValue });
    s = step(s, 'stress_test_record', { objection: 'Redis licensing changed', severity: 'mitigable', response: 'Valkey is a drop-in fork' });
    refusedWith(apply(s, 'stress_test_record', { objection: 'x', severity: 'fatal', response: 'y' }), 'stress-test-done');
    s = step(s, 'iteration_advance', {});
    expect([s.n, s.phase]).toEqual([4, 'DEVELOPMENT']);
  });

  it('minimal and quick modes refuse the stress test', () => {
    refusedWith(apply(withTwoPoints({ mode: 'minimal' }), 'stress_test_record', { objection: 'o', severity: 'fatal', response: 'r' }), 'mode-minimal');
    refusedWith(apply(withTwoPoints({ mode: 'quick' }), 'stress_test_record', { objection: 'o', severity: 'fatal', response: 'r' }), 'mode-quick');
  });
});

describe('format failures', () => {
  it('do not increment n nor burn a defense window; two in a row exit early (quality)', () => {
    let s = contested();
    s = step(s, 'reply_record', { text: 'Well, it depends on many things.' });
    expect([s.n, s.replyRecorded, s.counters.consecutiveFormatFailures]).toEqual([2, false, 1]);
    expect(s.challenges[0]).toMatchObject({ status: 'open', reminderSent: false });
    refusedWith(apply(s, 'iteration_advance', {}), 'valid-reply-required');
    const recovered = step(s, 'reply_record', { text: 'Re C1: warm restarts. INFERENCE' });
    expect(recovered.counters.consecutiveFormatFailures).toBe(0);
    s = step(s, 'reply_record', { text: '1. I verified it and it works.' });
    expect(s.status).toBe('terminated');
    expect(s.termination?.reason).toBe('early-exit-quality');
  });

  it('the orchestrator may declare a failure the parser cannot see', () => {
    const s = step(contested(), 'reply_record', { text: '1. Warm restarts matter. INFERENCE', formatFailure: 'answered C1 without its id' });
    expect(s.counters.lastFailure).toBe('answered C1 without its id');
    expect(s.points).toHaveLength(2);
  });
});

describe('late content by phase', () => {
  it('DEVELOPMENT sends new arguments to Not Evaluated but admits extensions and evidence', () => {
    let s = holdRound(contested());
    s = step(s, 'iteration_advance', {});
    s = holdRound(s);
    s = step(s, 'iteration_advance', {});
    expect(s.phase).toBe('DEVELOPMENT');
    s = step(s, 'reply_record', { text: 'Re C1: holds. INFERENCE\n1. A brand new idea: use SQLite. GUESS\n2. Extending P1.2: ops cost is lower. INFERENCE\n3. Benchmarks show 1M ops/s. EVIDENCE: bench.txt:3' });
    expect(s.points.slice(2).map((p) => [p.id, p.status])).toEqual([
      ['P4.1', 'not-evaluated'],
      ['P4.2', 'pending-triage'],
      ['P4.3', 'pending-triage'],
    ]);
    expect(s.notEvaluated[0]).toMatchObject({ ref: 'P4.1', reason: 'phase-violation' });
  });

  it('CRYSTALLIZATION closes new arguments; only decisive evidence stays in play', () => {
    let s = holdRound(contested());
    for (let i = 0; i < 3; i += 1) {
      s = step(s, 'iteration_advance', {});
      s = holdRound(s);
    }
    s = step(s, 'iteration_advance', {});
    expect([s.n, s.phase]).toEqual([6, 'CRYSTALLIZATION']);
    s = step(s, 'reply_record', { text: 'Re C1: holds. INFERENCE\n1. New idea. GUESS\n2. Measured p99 2ms. EVIDENCE: bench.txt:9\n3. More numbers. EVIDENCE: bench.txt:10' });
    expect(s.notEvaluated.find((n) => n.ref === 'P6.1')?.reason).toBe('phase-closed');
    s = step(s, 'point_triage', { pointId: 'P6.2', triage: 'in-scope', reason: 'it directly contradicts P1.1', decisive: true });
    s = step(s, 'point_triage', { pointId: 'P6.3', triage: 'in-scope', reason: 'related numbers, not decisive' });
    expect(s.points.find((p) => p.id === 'P6.2')?.status).toBe('pending-evaluation');
    expect(s.notEvaluated.find((n) => n.ref === 'P6.3')?.reason).toBe('non-decisive-evidence');
  });
});

describe('termination and deadlock', () => {
  it('converges when nothing is open, no new points arrive and the disputed list is unchanged', () => {
    let s = step(withTwoPoints(), 'point_evaluate', { pointId: 'P1.1', ...agreeValue });
    s = step(s, 'point_evaluate', { pointId: 'P1.2', ...agreeValue });
    s = step(s, 'iteration_advance', {});
    s = step(s, 'reply_record', { text: 'Re C9: nothing further to add. INFERENCE' });
    s = step(s, 'iteration_advance', {});
    expect(s.termination?.reason).toBe('convergence');
    refusedWith(apply(s, 'reply_record', { text: '1. x' }), 'deliberation-terminated');
  });

  it('early exit (trivial) only by n=2 with nothing disputed', () => {
    const s = step(withTwoPoints(), 'point_evaluate', { pointId: 'P1.1', ...skeptical });
    refusedWith(apply(step(s, 'point_evaluate', { pointId: 'P1.2', ...agreeValue }), 'iteration_advance', { trivial: true }), 'early-exit-trivial');
    let t = step(withTwoPoints(), 'point_evaluate', { pointId: 'P1.1', ...agreeValue });
    t = step(t, 'point_evaluate', { pointId: 'P1.2', ...agreeValue });
    expect(step(t, 'iteration_advance', { trivial: true }).termination?.reason).toBe('early-exit-trivial');
  });

  it('deadlock after 3+ iterations: missing data -> Blocked + surfaced question; definitional retries once; criteria -> tradeoff', () => {
    let s = holdRound(contested());
    s = step(s, 'iteration_advance', {});
    s = holdRound(s);
    s = step(s, 'iteration_advance', {});
    expect(s.n).toBe(4);
    s = step(s, 'reply_record', { text: 'Re C1: holds. INFERENCE' });
    const deadlock = { challengeId: 'C1', verdict: 'deadlock', reason: 'neither side has latency numbers' };
    expect(s.n - s.challenges[0]!.openedIter).toBe(3);
    refusedWith(apply(s, 'challenge_resolve', { ...deadlock, deadlock: 'missing-data', measurement: 'p99' }), 'blocked-needs-measurement');
    const blocked = step(s, 'challenge_resolve', { ...deadlock, deadlock: 'missing-data', measurement: 'p99 under load', threshold: '5 ms', verdictChange: 'above 5 ms the point falls' });
    expect(blocked.buckets.unresolved[0]).toMatchObject({ pointId: 'P1.1', status: 'blocked' });
    expect(blocked.surfacedQuestions[0]?.pointId).toBe('P1.1');
    const defn = step(s, 'challenge_resolve', { ...deadlock, deadlock: 'definitional', reason: 'cache means different things' });
    expect(defn.challenges[0]).toMatchObject({ status: 'open', clarificationRequested: true });
    const tradeoff = step(s, 'challenge_resolve', { ...deadlock, deadlock: 'criteria', reason: 'speed versus simplicity' });
    expect(tradeoff.buckets.unresolved[0]).toMatchObject({ status: 'tradeoff' });
    expect(tradeoff.surfacedQuestions).toHaveLength(1);
  });

  it('refuses a deadlock classification too early', () => {
    const s = step(contested(), 'reply_record', { text: 'Re C1: holds. INFERENCE' });
    refusedWith(apply(s, 'challenge_resolve', { challengeId: 'C1', verdict: 'deadlock', deadlock: 'criteria', reason: 'speed versus simplicity' }), 'deadlock-too-early');
  });
});
