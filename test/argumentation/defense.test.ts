import { describe, expect, it } from 'vitest';
import type { DeliberationState } from '../../schemas/argumentation.js';
import { agreeEmpirical, apply, refusedWith, skeptical, step, withTwoPoints } from './helpers.js';

const reject = { classification: 'REJECT', flaw: 'Persistence is off by default.', claimType: 'empirical', evidence: 'redis.conf:1 save ""', terminalWhy: 'the claim states the opposite of the default' };

/** Both points challenged at n=1 (P1.1 by C1 with `first`, P1.2 agreed), then advanced to n=2. */
function challenged(first: object = skeptical): DeliberationState {
  let s = step(withTwoPoints(), 'point_evaluate', { pointId: 'P1.1', ...first });
  s = step(s, 'point_evaluate', { pointId: 'P1.2', classification: 'AGREE', claimType: 'value', reason: 'simplicity matters for a small team' });
  return step(s, 'iteration_advance', {});
}

describe('per-challenge reply handling', () => {
  it('a referenced SKEPTICAL challenge becomes defended and waits for judgment', () => {
    const s = step(challenged(), 'reply_record', { text: 'Re C1: snapshots let a cold cache warm up fast. EVIDENCE: redis.io "RDB"' });
    expect(s.challenges[0]).toMatchObject({ status: 'defended', defenseIter: 2 });
    expect(s.challenges[0]?.defense).toContain('warm up');
    expect(s.points).toHaveLength(2);
    refusedWith(apply(s, 'iteration_advance', {}), 'anti-authority');
  });

  it('an unreferenced SKEPTICAL challenge is dropped with a reminder, then dismissed UNDEFENDED', () => {
    let s = step(challenged(), 'reply_record', { text: '1. Also consider KeyDB. GUESS' });
    expect(s.challenges[0]).toMatchObject({ status: 'dropped', reminderSent: true });
    s = step(s, 'point_triage', { pointId: 'P2.1', triage: 'out-of-scope', reason: 'KeyDB was not among the options' });
    s = step(s, 'iteration_advance', {});
    expect(s.n).toBe(3);
    s = step(s, 'reply_record', { text: '1. Redis has modules. EVIDENCE: redis.io/modules' });
    expect(s.challenges[0]?.status).toBe('undefended');
    expect(s.buckets.dismissed.find((d) => d.pointId === 'P1.1')).toMatchObject({ tag: 'UNDEFENDED', reason: expect.stringContaining('UNDEFENDED (iter 3)') });
  });

  it('an explicit concession dismisses the point as CONCEDED', () => {
    const s = step(challenged(), 'reply_record', { text: '1. I concede C1, persistence does not matter here.' });
    expect(s.challenges[0]?.status).toBe('conceded');
    expect(s.buckets.dismissed[0]).toMatchObject({ pointId: 'P1.1', tag: 'CONCEDED', reason: expect.stringContaining('iteration 2') });
    expect(s.points).toHaveLength(2);
  });

  it('a REJECT challenge gets one round and no reminder', () => {
    const s = step(challenged(reject), 'reply_record', { text: '1. Memcached has a slab allocator. EVIDENCE: memcached.org' });
    expect(s.challenges[0]?.status).toBe('undefended');
    expect(s.buckets.dismissed[0]).toMatchObject({ pointId: 'P1.1', tag: 'UNDEFENDED' });
  });

  it('challenges opened in this iteration are not judged by this reply', () => {
    let s = withTwoPoints();
    s = step(s, 'point_evaluate', { pointId: 'P1.1', ...skeptical });
    expect(s.challenges[0]?.raisedIter).toBe(1);
    expect(s.replyRecorded).toBe(true);
    refusedWith(apply(s, 'reply_record', { text: '1. x. GUESS' }), 'reply-already-recorded');
  });
});

describe('challenge_resolve', () => {
  const defended = (first: object = skeptical) => step(challenged(first), 'reply_record', { text: 'Re C1: warm restarts matter for us. EVIDENCE: runbook.md:4 "restart weekly"' });

  it('accepting a SKEPTICAL defense passes the evidence gate into Agreed and records a revision', () => {
    const s = defended();
    refusedWith(apply(s, 'challenge_resolve', { challengeId: 'C1', verdict: 'accepted', reason: 'weekly restarts make warm-up matter', claimType: 'empirical' }), 'evidence-gate');
    const ok = step(s, 'challenge_resolve', { challengeId: 'C1', verdict: 'accepted', ...agreeEmpirical, reason: 'weekly restarts make warm-up matter' });
    expect(ok.challenges[0]).toMatchObject({ status: 'resolved', resolution: 'accepted' });
    expect(ok.buckets.agreed.find((a) => a.pointId === 'P1.1')).toBeTruthy();
    expect(ok.ledger.at(-1)).toMatchObject({ tag: 'revision' });
  });

  it('rejecting a defense needs evidence and dismisses REJECTED', () => {
    const s = defended();
    refusedWith(apply(s, 'challenge_resolve', { challengeId: 'C1', verdict: 'rejected', reason: 'restarts are rare in practice' }), 'rejection-needs-evidence');
    const ok = step(s, 'challenge_resolve', { challengeId: 'C1', verdict: 'rejected', reason: 'restarts are rare in practice', evidence: 'uptime log: 400 days' });
    expect(ok.buckets.dismissed[0]).toMatchObject({ pointId: 'P1.1', tag: 'REJECTED' });
  });

  it('a rebutted SKEPTICAL challenge reopens; REJECT allows no second round', () => {
    const s = step(defended(), 'challenge_resolve', { challengeId: 'C1', verdict: 'rebutted', reason: 'weekly restarts take seconds anyway' });
    expect(s.challenges[0]).toMatchObject({ status: 'open', raisedIter: 2, rebuttal: 'weekly restarts take seconds anyway' });
    refusedWith(apply(defended(reject), 'challenge_resolve', { challengeId: 'C1', verdict: 'rebutted', reason: 'still not convinced of it' }), 'reject-single-round');
  });

  it('an accepted REJECT defense upgrades to SKEPTICAL or AGREE', () => {
    const s = defended(reject);
    refusedWith(apply(s, 'challenge_resolve', { challengeId: 'C1', verdict: 'accepted', reason: 'the defense shows a real config' }), 'upgrade-target');
    const up = step(s, 'challenge_resolve', { challengeId: 'C1', verdict: 'accepted', upgradeTo: 'SKEPTICAL', reason: 'the defense shows a real config' });
    expect(up.challenges[0]).toMatchObject({ type: 'SKEPTICAL', status: 'open' });
    expect(up.positions.at(-1)).toMatchObject({ classification: 'SKEPTICAL', revision: { from: 'REJECT' } });
  });

  it('only a defended challenge can be judged', () => {
    refusedWith(apply(challenged(), 'challenge_resolve', { challengeId: 'C1', verdict: 'accepted', reason: 'looks good to me now' }), 'no-defense-to-judge');
  });
});
