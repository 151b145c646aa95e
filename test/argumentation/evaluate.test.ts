import { describe, expect, it } from 'vitest';
import { agreeEmpirical, agreeValue, apply, refusedWith, skeptical, start, step, withTwoPoints } from './helpers.js';

describe('triage', () => {
  it('routes out-of-scope to Dismissed and anchor shifts to Unresolved with a surfaced question, question unchanged', () => {
    let s = step(start(), 'reply_record', { text: '1. Use Kubernetes. GUESS\n2. Actually ask whether you need a cache at all. INFERENCE' });
    expect(s.points.map((p) => [p.id, p.status])).toEqual([
      ['P1.1', 'pending-triage'],
      ['P1.2', 'pending-triage'],
    ]);
    refusedWith(apply(s, 'point_triage', { pointId: 'P1.1', triage: 'out-of-scope', reason: 'no' }), 'substantive-reason');
    s = step(s, 'point_triage', { pointId: 'P1.1', triage: 'out-of-scope', reason: 'orchestration is not the question' });
    s = step(s, 'point_triage', { pointId: 'P1.2', triage: 'anchor-shift', reason: 'reframes cache choice into cache need' });
    expect(s.buckets.dismissed[0]).toMatchObject({ pointId: 'P1.1', tag: 'OUT-OF-SCOPE' });
    expect(s.buckets.unresolved[0]).toMatchObject({ pointId: 'P1.2', status: 'pending-anchor-shift' });
    expect(s.surfacedQuestions[0]?.text).toContain('consent');
    expect(s.question).toBe('Should the cache use Redis or Memcached?');
    refusedWith(apply(s, 'point_triage', { pointId: 'P1.1', triage: 'in-scope', reason: 'changed my mind here' }), 'already-triaged');
  });

  it('refuses to evaluate before triage', () => {
    const s = step(start(), 'reply_record', { text: '1. a claim. GUESS' });
    refusedWith(apply(s, 'point_evaluate', { pointId: 'P1.1', ...agreeValue }), 'triage-first');
  });
});

describe('evaluation and articulation', () => {
  it('AGREE on a value judgment goes to Agreed with evidence n/a', () => {
    const s = step(withTwoPoints(), 'point_evaluate', { pointId: 'P1.2', ...agreeValue });
    expect(s.buckets.agreed[0]).toMatchObject({ pointId: 'P1.2', claimType: 'value', evidenceType: 'n/a' });
  });

  it('the evidence gate refuses an empirical AGREE without execution or textual evidence', () => {
    const s = withTwoPoints();
    refusedWith(apply(s, 'point_evaluate', { pointId: 'P1.1', classification: 'AGREE', claimType: 'empirical', reason: 'sounds right to me' }), 'evidence-gate');
    refusedWith(apply(s, 'point_evaluate', { pointId: 'P1.1', classification: 'AGREE', claimType: 'empirical', evidenceType: 'n/a', evidence: 'x', reason: 'sounds right to me' }), 'evidence-gate');
    refusedWith(apply(s, 'point_evaluate', { pointId: 'P1.1', classification: 'AGREE', reason: 'sounds right to me' }), 'evidence-gate');
    const ok = step(s, 'point_evaluate', { pointId: 'P1.1', ...agreeEmpirical });
    expect(ok.buckets.agreed[0]).toMatchObject({ evidenceType: 'textual' });
  });

  it('the evidence gate refuses evidence that rests on an unverified consultee fact', () => {
    let s = step(withTwoPoints(), 'ledger_update', { action: 'add', text: 'Redis persists by default', tag: 'codex-unverified' });
    refusedWith(apply(s, 'point_evaluate', { pointId: 'P1.1', ...agreeEmpirical, evidence: 'F1' }), 'evidence-gate');
    s = step(s, 'ledger_update', { action: 'verify', factId: 'F1', outcome: 'confirmed', reference: 'redis.conf:300 "save 3600 1"' });
    expect(step(s, 'point_evaluate', { pointId: 'P1.1', ...agreeEmpirical, evidence: 'F2' }).buckets.agreed).toHaveLength(1);
  });

  it('SKEPTICAL needs a one-sentence flaw; "none" is a contradiction', () => {
    const s = withTwoPoints();
    refusedWith(apply(s, 'point_evaluate', { pointId: 'P1.1', classification: 'SKEPTICAL' }), 'articulation');
    refusedWith(apply(s, 'point_evaluate', { pointId: 'P1.1', classification: 'SKEPTICAL', flaw: 'none' }), 'articulation');
    refusedWith(apply(s, 'point_evaluate', { pointId: 'P1.1', classification: 'SKEPTICAL', flaw: 'It is wrong. Also slow.' }), 'articulation');
    const ok = step(s, 'point_evaluate', { pointId: 'P1.1', ...skeptical });
    expect(ok.challenges[0]).toMatchObject({ id: 'C1', pointId: 'P1.1', type: 'SKEPTICAL', status: 'open', raisedIter: 1 });
    expect(ok.points[0]?.status).toBe('contested');
  });

  it('REJECT needs flaw, claim type, evidence and why it is terminal', () => {
    const s = withTwoPoints();
    const legal = refusedWith(apply(s, 'point_evaluate', { pointId: 'P1.1', classification: 'REJECT', flaw: 'Persistence is off by default.' }), 'articulation');
    expect(legal).toContain('point_evaluate');
    const ok = step(s, 'point_evaluate', { pointId: 'P1.1', classification: 'REJECT', flaw: 'Persistence is off by default.', claimType: 'empirical', evidence: 'redis.conf:1 save ""', terminalWhy: 'the claim is the opposite of the default' });
    expect(ok.challenges[0]).toMatchObject({ type: 'REJECT' });
  });

  it('ILL-FORMED asks for clarification, which the next prompt carries', () => {
    const s = step(withTwoPoints(), 'point_evaluate', { pointId: 'P1.1', classification: 'ILL-FORMED', flaw: 'Which persistence mode is meant?' });
    expect(s.points[0]).toMatchObject({ status: 'clarification-requested', clarification: 'Which persistence mode is meant?' });
  });

  it('position stability: an unacknowledged flip is refused, an acknowledged one adds a revision fact', () => {
    const s = step(withTwoPoints(), 'point_evaluate', { pointId: 'P1.2', ...agreeValue });
    refusedWith(apply(s, 'point_evaluate', { pointId: 'P1.2', ...skeptical }), 'position-stability');
    refusedWith(apply(s, 'point_evaluate', { pointId: 'P1.2', ...skeptical, revision: { from: 'REJECT', because: 'new data arrived today' } }), 'position-stability');
    const r = step(s, 'point_evaluate', { pointId: 'P1.2', ...skeptical, revision: { from: 'AGREE', because: 'the team already runs Redis' } });
    expect(r.buckets.agreed).toHaveLength(0);
    expect(r.ledger.at(-1)).toMatchObject({ tag: 'revision', justification: 'the team already runs Redis' });
    expect(r.challenges[0]?.pointId).toBe('P1.2');
  });
});

describe('buckets', () => {
  it('refuses to place an unevaluated point (anti-authority) or a challenged one (defense obligation)', () => {
    const s = withTwoPoints();
    refusedWith(apply(s, 'bucket_assign', { pointId: 'P1.1', bucket: 'dismissed', tag: 'FALSE', reason: 'contradicted by the docs' }), 'anti-authority');
    const c = step(s, 'point_evaluate', { pointId: 'P1.1', ...skeptical });
    refusedWith(apply(c, 'bucket_assign', { pointId: 'P1.1', bucket: 'dismissed', tag: 'FALSE', reason: 'contradicted by the docs' }), 'defense-obligation');
  });

  it('Blocked needs measurement, threshold and verdict change', () => {
    const s = step(withTwoPoints({ mode: 'quick' }), 'point_evaluate', { pointId: 'P1.1', ...skeptical });
    refusedWith(apply(s, 'bucket_assign', { pointId: 'P1.1', bucket: 'unresolved', status: 'blocked', crux: 'we lack the numbers', measurement: 'p99 latency' }), 'blocked-needs-measurement');
    const ok = step(s, 'bucket_assign', { pointId: 'P1.1', bucket: 'unresolved', status: 'blocked', crux: 'we lack the numbers', measurement: 'p99 latency', threshold: '5 ms', verdictChange: 'above it Memcached wins' });
    expect(ok.buckets.unresolved[0]).toMatchObject({ status: 'blocked', threshold: '5 ms' });
  });

  it('reserves CONCEDED and UNDEFENDED for replies', () => {
    const s = step(withTwoPoints({ mode: 'quick' }), 'point_evaluate', { pointId: 'P1.1', ...skeptical });
    refusedWith(apply(s, 'bucket_assign', { pointId: 'P1.1', bucket: 'dismissed', tag: 'CONCEDED', reason: 'they gave it up' }), 'procedural-tag');
  });

  it('moving an AGREE point to Dismissed needs a revision', () => {
    const s = step(withTwoPoints({ mode: 'quick' }), 'point_evaluate', { pointId: 'P1.2', ...agreeValue });
    refusedWith(apply(s, 'bucket_assign', { pointId: 'P1.2', bucket: 'dismissed', tag: 'RISKY', reason: 'operational risk is too high' }), 'position-stability');
    const ok = step(s, 'bucket_assign', { pointId: 'P1.2', bucket: 'dismissed', tag: 'RISKY', reason: 'operational risk is too high', revision: { from: 'AGREE', because: 'ops team vetoed it today' } });
    expect(ok.buckets.agreed).toHaveLength(0);
    expect(ok.buckets.dismissed[0]).toMatchObject({ pointId: 'P1.2', tag: 'RISKY' });
  });

  it('anti-sycophancy: a self-contradiction is challenged with the citation of the earlier claim', () => {
    let s = step(withTwoPoints(), 'point_evaluate', { pointId: 'P1.1', ...agreeEmpirical });
    s = step(s, 'point_evaluate', { pointId: 'P1.2', ...agreeValue });
    s = step(s, 'iteration_advance', {});
    s = step(s, 'reply_record', { text: '1. Redis has no persistence at all. GUESS' });
    s = step(s, 'point_triage', { pointId: 'P2.1', triage: 'in-scope', reason: 'it contradicts the earlier claim' });
    refusedWith(apply(s, 'point_evaluate', { pointId: 'P2.1', ...agreeValue, contradicts: 'P1.1' }), 'anti-sycophancy');
    s = step(s, 'point_evaluate', { pointId: 'P2.1', classification: 'SKEPTICAL', flaw: 'It contradicts P1.1.', contradicts: 'P1.1' });
    expect(s.challenges[0]?.objection).toMatch(/^Iteration 1 you claimed \(P1\.1\) "Redis supports persistence.*now P2\.1 claims the opposite: reconcile/);
  });
});
