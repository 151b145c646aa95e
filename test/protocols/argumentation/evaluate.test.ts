import { describe, expect, it } from 'vitest';
import { advance, agreeEmpirical, agreeValue, judge, judged, points, refusedWith, reply, skeptical, start, withTwoPoints } from './helpers.js';

describe('triage', () => {
  it('routes out-of-scope to Dismissed and anchor shifts to Unresolved with a surfaced question, question unchanged', () => {
    let s = reply(start(), '1. Use Kubernetes. GUESS\n2. Actually ask whether you need a cache at all. INFERENCE');
    expect(s.points.map((p) => [p.id, p.status])).toEqual([
      ['P1.1', 'pending-triage'],
      ['P1.2', 'pending-triage'],
    ]);
    refusedWith(judge(s, points(['P1.1', { triage: 'out-of-scope', reason: 'no' }])), 'substantive-reason');
    s = judged(s, points(['P1.1', { triage: 'out-of-scope', reason: 'orchestration is not the question' }], ['P1.2', { triage: 'anchor-shift', reason: 'reframes cache choice into cache need' }]));
    expect(s.buckets.dismissed[0]).toMatchObject({ pointId: 'P1.1', tag: 'OUT-OF-SCOPE' });
    expect(s.buckets.unresolved[0]).toMatchObject({ pointId: 'P1.2', status: 'pending-anchor-shift' });
    expect(s.surfacedQuestions[0]?.text).toContain('consent');
    expect(s.question).toBe('Should the cache use Redis or Memcached?');
    refusedWith(judge(s, points(['P1.1', { triage: 'in-scope' }])), 'already-triaged');
    // The same triage again is a confirmation, not a second decision.
    expect(judged(s, points(['P1.1', { triage: 'out-of-scope', reason: 'orchestration is not the question' }])).buckets).toEqual(s.buckets);
  });

  it('a point item with neither triage nor verdict is refused until triaged; a verdict implies in-scope', () => {
    const s = reply(start(), '1. a claim about caching. GUESS');
    expect(refusedWith(judge(s, points(['P1.1', { reason: 'a claim about caching' }])), 'triage-first')).toEqual(['triage', 'verdict']);
    const r = judge(s, points(['P1.1', agreeValue]));
    expect(r.ok && r.state.points[0]).toMatchObject({ triage: 'in-scope', status: 'agreed' });
    expect(r.ok && r.effects).toEqual(['P1.1 -> Agreed (n/a)']);
  });

  it('refuses an unknown point', () => {
    refusedWith(judge(withTwoPoints(), points(['P9.9', { triage: 'in-scope' }])), 'unknown-point');
  });
});

describe('evaluation and articulation', () => {
  it('AGREE on a value judgment goes to Agreed with evidence n/a', () => {
    const s = judged(withTwoPoints(), points(['P1.2', agreeValue]));
    expect(s.buckets.agreed[0]).toMatchObject({ pointId: 'P1.2', claimType: 'value', evidenceType: 'n/a' });
  });

  it('the evidence gate refuses an empirical AGREE without execution or textual evidence', () => {
    const s = withTwoPoints();
    refusedWith(judge(s, points(['P1.1', { verdict: 'AGREE', claimType: 'empirical', reason: 'sounds right to me' }])), 'evidence-gate');
    refusedWith(judge(s, points(['P1.1', { verdict: 'AGREE', claimType: 'empirical', evidenceType: 'n/a', evidence: 'x', reason: 'sounds right to me' }])), 'evidence-gate');
    refusedWith(judge(s, points(['P1.1', { verdict: 'AGREE', reason: 'sounds right to me' }])), 'evidence-gate');
    expect(judged(s, points(['P1.1', agreeEmpirical])).buckets.agreed[0]).toMatchObject({ evidenceType: 'textual' });
  });

  it('the evidence gate refuses evidence that rests on an unverified consultee fact', () => {
    const s = judged(withTwoPoints(), { ledger: [{ action: 'add', text: 'Redis persists by default', tag: 'codex-unverified' }] });
    refusedWith(judge(s, points(['P1.1', { ...agreeEmpirical, evidence: 'F1' }])), 'evidence-gate');
    const verified = judged(s, { ledger: [{ action: 'verify', factId: 'F1', outcome: 'confirmed', reference: 'redis.conf:300 "save 3600 1"' }], ...points(['P1.1', { ...agreeEmpirical, evidence: 'F2' }]) });
    expect(verified.buckets.agreed).toHaveLength(1);
  });

  it('SKEPTICAL needs a one-sentence flaw; "none" is a contradiction', () => {
    const s = withTwoPoints();
    refusedWith(judge(s, points(['P1.1', { verdict: 'SKEPTICAL' }])), 'articulation');
    refusedWith(judge(s, points(['P1.1', { verdict: 'SKEPTICAL', flaw: 'none' }])), 'articulation');
    refusedWith(judge(s, points(['P1.1', { verdict: 'SKEPTICAL', flaw: 'It is wrong. Also slow.' }])), 'articulation');
    const ok = judged(s, points(['P1.1', skeptical]));
    expect(ok.challenges[0]).toMatchObject({ id: 'C1', pointId: 'P1.1', type: 'SKEPTICAL', status: 'open', raisedIter: 1 });
    expect(ok.points[0]?.status).toBe('contested');
  });

  it('REJECT needs flaw, claim type, evidence and why it is terminal', () => {
    const s = withTwoPoints();
    const legal = refusedWith(judge(s, points(['P1.1', { verdict: 'REJECT', flaw: 'Persistence is off by default.' }])), 'articulation');
    expect(legal).toEqual(['verdict']);
    const ok = judged(s, points(['P1.1', { verdict: 'REJECT', flaw: 'Persistence is off by default.', claimType: 'empirical', evidence: 'redis.conf:1 save ""', terminalWhy: 'the claim is the opposite of the default' }]));
    expect(ok.challenges[0]).toMatchObject({ type: 'REJECT' });
  });

  it('ILL-FORMED asks for clarification, which the next prompt carries', () => {
    const s = judged(withTwoPoints(), points(['P1.1', { verdict: 'ILL-FORMED', flaw: 'Which persistence mode is meant?' }]));
    expect(s.points[0]).toMatchObject({ status: 'clarification-requested', clarification: 'Which persistence mode is meant?' });
  });

  it('position stability: an unacknowledged flip is refused, an acknowledged one adds a revision fact', () => {
    const s = judged(withTwoPoints(), points(['P1.2', agreeValue]));
    refusedWith(judge(s, points(['P1.2', skeptical])), 'position-stability');
    refusedWith(judge(s, points(['P1.2', { ...skeptical, revision: { from: 'REJECT', because: 'new data arrived today' } }])), 'position-stability');
    const r = judged(s, points(['P1.2', { ...skeptical, revision: { from: 'AGREE', because: 'the team already runs Redis' } }]));
    expect(r.buckets.agreed).toHaveLength(0);
    expect(r.ledger.at(-1)).toMatchObject({ tag: 'revision', justification: 'the team already runs Redis' });
    expect(r.challenges[0]?.pointId).toBe('P1.2');
  });
});

describe('buckets', () => {
  it('refuses to place an unevaluated point (anti-authority) or a challenged one (defense obligation)', () => {
    const s = withTwoPoints();
    const dismiss = { bucket: 'dismissed', tag: 'FALSE', reason: 'contradicted by the docs' };
    expect(refusedWith(judge(s, points(['P1.1', dismiss])), 'anti-authority')).toEqual(['verdict']);
    const c = judged(s, points(['P1.1', skeptical]));
    expect(refusedWith(judge(c, points(['P1.1', dismiss])), 'defense-obligation')).toEqual([]);
  });

  it('Blocked needs measurement, threshold and verdict change', () => {
    const s = judged(withTwoPoints({ mode: 'quick' }), points(['P1.1', skeptical]));
    const blocked = { bucket: 'unresolved', status: 'blocked', crux: 'we lack the numbers', measurement: 'p99 latency' };
    refusedWith(judge(s, points(['P1.1', blocked])), 'blocked-needs-measurement');
    const ok = judged(s, points(['P1.1', { ...blocked, threshold: '5 ms', verdictChange: 'above it Memcached wins' }]));
    expect(ok.buckets.unresolved[0]).toMatchObject({ status: 'blocked', threshold: '5 ms' });
  });

  it('reserves CONCEDED and UNDEFENDED for replies', () => {
    const s = judged(withTwoPoints({ mode: 'quick' }), points(['P1.1', skeptical]));
    // The judgment's schema does not offer them; the engine's bucket rule refuses them too.
    refusedWith(judge(s, points(['P1.1', { bucket: 'dismissed', tag: 'CONCEDED', reason: 'they gave it up' }])), 'invalid-input');
    refusedWith(judge(s, points(['P1.1', { bucket: 'dismissed', reason: 'they gave it up' }])), 'procedural-tag');
  });

  it('moving an AGREE point to Dismissed needs a revision', () => {
    const s = judged(withTwoPoints({ mode: 'quick' }), points(['P1.2', agreeValue]));
    const risky = { bucket: 'dismissed', tag: 'RISKY', reason: 'operational risk is too high' };
    refusedWith(judge(s, points(['P1.2', risky])), 'position-stability');
    const ok = judged(s, points(['P1.2', { ...risky, revision: { from: 'AGREE', because: 'ops team vetoed it today' } }]));
    expect(ok.buckets.agreed).toHaveLength(0);
    expect(ok.buckets.dismissed[0]).toMatchObject({ pointId: 'P1.2', tag: 'RISKY' });
  });

  it('anti-sycophancy: a self-contradiction is challenged with the citation of the earlier claim', () => {
    let s = judged(withTwoPoints(), { ...points(['P1.1', agreeEmpirical], ['P1.2', agreeValue]), ...advance });
    s = reply(s, '1. Redis has no persistence at all. GUESS');
    refusedWith(judge(s, points(['P2.1', { ...agreeValue, contradicts: 'P1.1' }])), 'anti-sycophancy');
    s = judged(s, points(['P2.1', { verdict: 'SKEPTICAL', flaw: 'It contradicts P1.1.', contradicts: 'P1.1' }]));
    expect(s.challenges[0]?.objection).toMatch(/^Iteration 1 you claimed \(P1\.1\) "Redis supports persistence.*now P2\.1 claims the opposite: reconcile/);
  });
});
