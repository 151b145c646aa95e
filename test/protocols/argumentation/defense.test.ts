import { describe, expect, it } from 'vitest';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { advance, agreeValue, apply, empiricalEvidence, judge, judged, points, refusedWith, reply, reportOf, skeptical, step, valueEvidence, withTwoPoints } from './helpers.js';

const reject = { verdict: 'REJECT', flaw: 'Persistence is off by default.', claimType: 'empirical', evidence: 'redis.conf:1 save ""', terminalWhy: 'the claim states the opposite of the default' };

/** P1.1 challenged at n=1 by C1 (`first`), P1.2 agreed, then advanced to n=2. */
function challenged(first: object = skeptical): DeliberationState {
  return judged(withTwoPoints(), { ...points(['P1.1', first], ['P1.2', agreeValue]), ...advance });
}

describe('per-challenge reply handling', () => {
  it('a referenced SKEPTICAL challenge becomes defended and waits for judgment', () => {
    const s = reply(challenged(), 'Re C1: snapshots let a cold cache warm up fast. EVIDENCE: redis.io "RDB"');
    expect(s.challenges[0]).toMatchObject({ status: 'defended', defenseIter: 2 });
    expect(s.challenges[0]?.defense).toContain('warm up');
    expect(s.points).toHaveLength(2);
    refusedWith(judge(s, advance), 'anti-authority');
  });

  it('an unreferenced SKEPTICAL challenge is dropped with a reminder, then dismissed UNDEFENDED', () => {
    let s = reply(challenged(), '1. Also consider KeyDB. GUESS');
    expect(s.challenges[0]).toMatchObject({ status: 'dropped', reminderSent: true });
    s = judged(s, { ...points(['P2.1', { triage: 'out-of-scope', reason: 'KeyDB was not among the options' }]), ...advance });
    expect(s.n).toBe(3);
    s = reply(s, '1. Redis has modules, see P1.1. EVIDENCE: redis.io/modules');
    expect(s.challenges[0]?.status).toBe('undefended');
    expect(s.buckets.dismissed.find((d) => d.pointId === 'P1.1')).toMatchObject({ tag: 'UNDEFENDED', iter: 3, reason: expect.stringContaining('C1') });
  });

  it('an explicit concession dismisses the point as CONCEDED', () => {
    const s = reply(challenged(), 'I concede C1, persistence does not matter here.');
    expect(s.challenges[0]?.status).toBe('conceded');
    expect(s.buckets.dismissed[0]).toMatchObject({ pointId: 'P1.1', tag: 'CONCEDED', reason: expect.stringContaining('iteration 2') });
    expect(s.points).toHaveLength(2);
  });

  it('a REJECT challenge gets one round and no reminder', () => {
    const s = reply(challenged(reject), '1. Memcached has a slab allocator. EVIDENCE: memcached.org');
    expect(s.challenges[0]?.status).toBe('undefended');
    expect(s.buckets.dismissed[0]).toMatchObject({ pointId: 'P1.1', tag: 'UNDEFENDED' });
  });

  it('challenges opened in this iteration are not judged by this reply', () => {
    const s = judged(withTwoPoints(), points(['P1.1', skeptical]));
    expect(s.challenges[0]?.raisedIter).toBe(1);
    expect(s.replyRecorded).toBe(true);
    expect(refusedWith(apply(s, 'reply_record', { text: '1. x. GUESS' }), 'reply-already-recorded')).toEqual(['delib_judge']);
  });
});

describe('partial concession', () => {
  const partly = 'Re C1: Partly conceded: the 10x figure goes. Narrowed claim: snapshots make a cold restart faster than a refill.';

  it('is a defense of a narrowed claim, never a full concession', () => {
    const s = reply(challenged(), partly);
    expect(s.challenges[0]).toMatchObject({ status: 'defended', partial: true, narrowedClaim: expect.stringContaining('cold restart faster') });
    expect(s.buckets.dismissed).toEqual([]);
  });

  it('accepted, the point stands as narrowed and the report shows the narrowed claim', () => {
    let s = reply(challenged(), partly);
    s = judged(s, { challenges: [{ id: 'C1', verdict: 'accepted', ...valueEvidence, reason: 'the narrowed claim holds for weekly restarts' }], phase: { advance: true } });
    expect(s.points[0]?.narrowed).toContain('cold restart faster');
    expect([s.n, s.status]).toEqual([3, 'active']);
    s = judged(reply(s, 'No further points.'), advance);
    expect(s.termination?.reason).toBe('convergence');
    const md = reportOf(step(s, 'synthesize', { recommendation: 'Redis, for warm restarts.', confidence: 'medium' }));
    // The point is stated as narrowed, then what it narrowed.
    expect(md.indexOf('**P1.1** snapshots make a cold restart faster than a refill.')).toBeGreaterThan(0);
    expect(md.indexOf('Redis supports persistence')).toBeGreaterThan(md.indexOf('**P1.1** snapshots'));
  });

  it('accepted with the claim as it now stands, when the reading could not cut it out (the m8 trial)', () => {
    const claim = 'Snapshots shorten a cold restart; only measured on one node.';
    const s = judged(reply(challenged(), partly), { challenges: [{ id: 'C1', verdict: 'accepted', ...valueEvidence, reason: 'it holds as restated', claim }] });
    expect(s.points[0]?.narrowed).toBe(claim);
  });
});

describe('new content in a concession (issue 27 item 4, the mind\'s words)', () => {
  const words = 'Re C1: I concede C1 partially: I still claim a kid header is needed, and also that we should migrate all login to OAuth.';
  const oauth = 'we should migrate all login to OAuth.';

  it('CONSTRUCTIVE: the new argument is a point to judge; once the orchestrator states the claim, the report still has it and quotes the answer', () => {
    const r = apply(challenged(), 'reply_record', { text: words });
    expect(r.ok && r.effects).toContain('P2.1: a new argument inside the answer to C1, a point of its own: judge it');
    let s = r.ok ? r.state : challenged();
    expect(s.challenges[0]).toMatchObject({ status: 'defended', partial: true, narrowedClaim: 'a kid header is needed.', answers: [{ iter: 2, text: words }] });
    expect(s.points.find((p) => p.id === 'P2.1')).toMatchObject({ status: 'pending-triage', text: oauth });
    // The orchestrator states the claim in its own words: the new argument is judged on its own, not lost with the rest.
    refusedWith(judge(s, { challenges: [{ id: 'C1', verdict: 'accepted', ...valueEvidence, reason: 'rotation needs the kid', claim: 'A kid header is needed.' }], ...advance }), 'anti-authority');
    s = judged(s, { challenges: [{ id: 'C1', verdict: 'accepted', ...valueEvidence, reason: 'rotation needs the kid', claim: 'A kid header is needed.' }], ...points(['P2.1', { triage: 'out-of-scope', reason: 'a login migration is not the question' }]), ...advance });
    s = judged(reply(s, 'No further points.'), advance);
    const md = reportOf(step(s, 'synthesize', { recommendation: 'Redis, with a kid header.', confidence: 'medium' }));
    expect(md).toContain(`**P2.1** ${oauth}`);
    expect(md).toContain('The consultee answered C1 (iteration 2): Re C1: I concede C1 partially: I still claim a kid header is needed, and also that we should migrate all login to OAuth.');
  });

  it('DEVELOPMENT: the new argument is Not Evaluated (phase-violation), and said so', () => {
    let s = challenged();
    // Rebutted until CONSTRUCTIVE (extended while the dispute is open) gives way to DEVELOPMENT.
    while (s.phase === 'CONSTRUCTIVE') s = judged(reply(s, 'Re C1: it holds. INFERENCE'), { challenges: [{ id: 'C1', verdict: 'rebutted', reason: 'a warm set refills in seconds here' }], ...advance });
    expect([s.n, s.phase]).toEqual([4, 'DEVELOPMENT']);
    const r = apply(s, 'reply_record', { text: words });
    expect(r.ok && r.effects).toContain('P4.1 -> Not Evaluated (phase-violation: a new argument inside the answer to C1 in DEVELOPMENT)');
    s = r.ok ? r.state : s;
    expect(s.notEvaluated).toContainEqual(expect.objectContaining({ ref: 'P4.1', reason: 'phase-violation' }));
    // Each answer is kept in the consultee's words, one per iteration.
    expect(s.challenges[0]?.answers?.map((a) => a.iter)).toEqual([2, 3, 4]);
  });
});

describe('judging challenges', () => {
  const defended = (first: object = skeptical) => reply(challenged(first), 'Re C1: warm restarts matter for us. EVIDENCE: runbook.md:4 "restart weekly"');
  const accepted = { id: 'C1', verdict: 'accepted', reason: 'weekly restarts make warm-up matter' };

  it('accepting a SKEPTICAL defense passes the evidence gate into Agreed and records a revision', () => {
    const s = defended();
    refusedWith(judge(s, { challenges: [{ ...accepted, claimType: 'empirical' }] }), 'evidence-gate');
    const ok = judged(s, { challenges: [{ ...accepted, ...empiricalEvidence, reason: 'weekly restarts make warm-up matter' }] });
    expect(ok.challenges[0]).toMatchObject({ status: 'resolved', resolution: 'accepted' });
    expect(ok.buckets.agreed.find((a) => a.pointId === 'P1.1')).toBeTruthy();
    expect(ok.ledger.at(-1)).toMatchObject({ tag: 'revision' });
  });

  it('rejecting a defense needs evidence and dismisses REJECTED', () => {
    const s = defended();
    const rejected = { id: 'C1', verdict: 'rejected', reason: 'restarts are rare in practice' };
    refusedWith(judge(s, { challenges: [rejected] }), 'rejection-needs-evidence');
    const ok = judged(s, { challenges: [{ ...rejected, evidence: 'uptime log: 400 days' }] });
    expect(ok.buckets.dismissed[0]).toMatchObject({ pointId: 'P1.1', tag: 'REJECTED' });
  });

  it('a rebutted SKEPTICAL challenge reopens; REJECT allows no second round', () => {
    const s = judged(defended(), { challenges: [{ id: 'C1', verdict: 'rebutted', reason: 'weekly restarts take seconds anyway' }] });
    expect(s.challenges[0]).toMatchObject({ status: 'open', raisedIter: 2, rebuttal: 'weekly restarts take seconds anyway' });
    const legal = refusedWith(judge(defended(reject), { challenges: [{ id: 'C1', verdict: 'rebutted', reason: 'still not convinced of it' }] }), 'reject-single-round');
    expect(legal).toEqual(['accepted', 'rejected']);
  });

  it('an accepted REJECT defense upgrades to SKEPTICAL or AGREE', () => {
    const s = defended(reject);
    refusedWith(judge(s, { challenges: [{ id: 'C1', verdict: 'accepted', reason: 'the defense shows a real config' }] }), 'upgrade-target');
    const up = judged(s, { challenges: [{ id: 'C1', verdict: 'accepted', upgradeTo: 'SKEPTICAL', reason: 'the defense shows a real config' }] });
    expect(up.challenges[0]).toMatchObject({ type: 'SKEPTICAL', status: 'open' });
    expect(up.positions.at(-1)).toMatchObject({ classification: 'SKEPTICAL', revision: { from: 'REJECT' } });
  });

  it('only a defended challenge can be judged', () => {
    const legal = refusedWith(judge(challenged(), { challenges: [{ id: 'C1', verdict: 'accepted', reason: 'looks good to me now' }] }), 'no-defense-to-judge');
    expect(legal).toEqual([]);
  });
});
