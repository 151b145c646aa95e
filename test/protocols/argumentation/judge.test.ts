import { describe, expect, it } from 'vitest';
import { nextLines } from '../../../protocols/argumentation/index.js';
import { HELD } from '../../../protocols/argumentation/moves/judgment.js';
import { advance, agreeEmpirical, agreeValue, apply, judge, judged, points, recommendation, refusedItem, refusedWith, reply, skeptical, start, withTwoPoints } from './helpers.js';

const THREE = '1. Redis supports persistence. EVIDENCE: docs.\n2. Memcached is simpler to operate. INFERENCE\n3. Both fit the budget. GUESS';
const three = () => reply(start(), THREE);

describe('judge: one judgment per iteration', () => {
  it('applies items in order: ledger before points, each list in its own order', () => {
    const s = judged(withTwoPoints(), {
      ledger: [
        { action: 'add', text: 'Redis snapshots with RDB by default', tag: 'codex-unverified' },
        { action: 'verify', factId: 'F1', outcome: 'confirmed', reference: 'redis.conf:300 "save 3600 1"' },
      ],
      ...points(['P1.1', { ...agreeEmpirical, evidence: 'F2' }]),
    });
    expect(s.ledger.map((f) => [f.id, f.tag])).toEqual([
      ['F1', 'codex-unverified'],
      ['F2', 'verified'],
    ]);
    expect(s.buckets.agreed[0]).toMatchObject({ pointId: 'P1.1', evidence: 'F2' });
  });

  it('a refused item comes back with its rule and legal actions; the items before and after it stand', () => {
    const r = judge(three(), points(['P1.1', agreeValue], ['P1.2', { verdict: 'SKEPTICAL' }], ['P1.3', agreeValue]));
    const item = refusedItem(r, 'articulation');
    expect(item).toMatchObject({ item: 'points[1]', ref: 'P1.2', legal: ['triage', 'verdict'] });
    expect(r.ok && r.state.points.map((p) => [p.id, p.status])).toEqual([
      ['P1.1', 'agreed'],
      ['P1.2', 'pending-triage'],
      ['P1.3', 'agreed'],
    ]);
  });

  it('a refused point item changes nothing, not even the triage its verdict implied', () => {
    const s = three();
    const r = judge(s, points(['P1.1', { verdict: 'AGREE', claimType: 'empirical', reason: 'the docs say so plainly' }]));
    refusedItem(r, 'evidence-gate');
    expect(r.ok && r.state.points[0]).toMatchObject({ status: 'pending-triage' });
    expect(r.ok && r.state.points[0]?.triage).toBeUndefined();
    // Verdict applied, bucket refused: the verdict does not stand alone either.
    const q = reply(start({ mode: 'quick' }), THREE);
    const both = judge(q, points(['P1.1', { ...skeptical, bucket: 'dismissed', reason: 'they will give it up' }]));
    refusedItem(both, 'procedural-tag');
    expect(both.ok && both.state.positions).toEqual([]);
  });

  it('neither advances nor synthesizes while any item is refused', () => {
    const s = judged(withTwoPoints(), { ...points(['P1.1', agreeValue], ['P1.2', agreeValue]), ...advance });
    const ending = reply(s, 'No further points.');
    const badLedger = { ledger: [{ action: 'add', text: 'Redis 7 is installed', tag: 'verified' }] };
    const r = judge(ending, { ...badLedger, ...advance, synthesis: recommendation });
    refusedItem(r, 'verified-needs-reference');
    expect(r.ok && [r.state.n, r.state.status, r.state.report]).toEqual([2, 'active', undefined]);
    expect(r.ok && r.effects).toContain('no advance: 1 item(s) refused; send them again, corrected, with phase.advance');
    // Corrected, the same judgment ends the deliberation and builds the report.
    const fixed = judged(ending, { ...advance, synthesis: recommendation });
    expect([fixed.termination?.reason, !!fixed.report]).toEqual(['convergence', true]);
    // Terminated already: a refused item still holds the synthesis back.
    const t = judge(fixed, { ...badLedger, synthesis: recommendation });
    refusedItem(t, 'verified-needs-reference');
    expect(t.ok && t.effects).toContain('synthesis not applied: some items were refused');
  });

  it('a synthesis given without an advance is not applied, and says so', () => {
    const r = judge(withTwoPoints(), { ...points(['P1.1', agreeValue], ['P1.2', agreeValue]), synthesis: recommendation });
    expect(r.ok && [r.state.n, r.state.report, r.state.heldSynthesis]).toEqual([1, undefined, undefined]);
    expect(r.ok && r.effects).toContain('synthesis not applied: the deliberation continues');
  });

  it("a synthesis given with an advance that goes on is held, and Codex's next reply with nothing further ends the deliberation with it: no judgment of its own (three A/B orchestrators paid one)", () => {
    const r = judge(withTwoPoints(), { ...points(['P1.1', agreeValue], ['P1.2', agreeValue]), ...advance, synthesis: recommendation });
    expect(r.ok && [r.state.n, r.state.report, r.state.heldSynthesis?.recommendation]).toEqual([2, undefined, recommendation.recommendation]);
    expect(r.ok && r.effects).toContain(HELD);
    const done = apply(judged(withTwoPoints(), { ...points(['P1.1', agreeValue], ['P1.2', agreeValue]), ...advance, synthesis: recommendation }), 'reply_record', { text: 'No further points.' });
    expect(done.ok && [done.state.status, done.state.termination?.reason, !!done.state.report, done.state.recommendation?.text, done.state.heldSynthesis]).toEqual([
      'terminated',
      'convergence',
      true,
      recommendation.recommendation,
      undefined,
    ]);
    expect(done.ok && done.effects).toEqual(expect.arrayContaining(['reply recorded for iteration 2', 'converged', 'the held synthesis was applied']));
  });

  it('a concession of what the orchestrator objected to, with nothing further, ends it too; a defense to judge holds it back, saying why', () => {
    const objected = () => judged(withTwoPoints(), { ...points(['P1.1', skeptical], ['P1.2', agreeValue]), ...advance, synthesis: recommendation });
    const conceded = apply(objected(), 'reply_record', { text: 'Re C1: I concede C1.\n\nNo further points.' });
    expect(conceded.ok && [conceded.state.status, !!conceded.state.report, conceded.state.buckets.dismissed.map((i) => i.pointId)]).toEqual(['terminated', true, ['P1.1']]);
    expect(conceded.ok && conceded.effects).toContain('the held synthesis was applied');
    const defended = apply(objected(), 'reply_record', { text: 'Re C1: INFERENCE: persistence matters for the weekly warm restart, so the claim stands.\n\nNo further points.' });
    expect(defended.ok && [defended.state.status, defended.state.report, defended.state.heldSynthesis]).toEqual(['active', undefined, undefined]);
    expect(defended.ok && defended.effects.join('\n')).toMatch(/the held synthesis was not applied: .*judge the defenses on C1/);
  });

  it('a reply that leaves more to judge drops the held synthesis and says so; the deliberation goes on', () => {
    const held = judged(withTwoPoints(), { ...points(['P1.1', agreeValue], ['P1.2', agreeValue]), ...advance, synthesis: recommendation });
    const more = apply(held, 'reply_record', { text: '1. Redis persistence matters for the weekly warm restart. INFERENCE' });
    expect(more.ok && [more.state.status, more.state.report, more.state.heldSynthesis]).toEqual(['active', undefined, undefined]);
    expect(more.ok && more.effects.join('\n')).toMatch(/the held synthesis was dropped: the reply leaves more to judge/);
  });

  it('a reply with nothing further and a replacement point, judged in the judgment that carries the synthesis, converges and applies it (issue 27, item 8)', () => {
    let s = judged(withTwoPoints(), { ...points(['P1.1', skeptical], ['P1.2', agreeValue]), ...advance });
    s = reply(s, 'Re C1: I concede C1 in part: a pure cache loses nothing it cannot refill. Point 1 gives the corrected version.\n\n1. Replaces P1.1: Redis persistence matters only for the weekly warm restart, where a refill would hit the database for minutes. INFERENCE\n\nNo further points.');
    expect(nextLines(s).find((line) => line.startsWith('delib_judge'))).toMatch(/ends the deliberation \(convergence\) unless a challenge stays open: add synthesis$/);
    const r = judge(s, { ...points(['P2.1', agreeValue]), ...advance, synthesis: recommendation });
    expect(r.ok && r.effects).not.toContain('synthesis not applied: the deliberation continues');
    expect(r.ok && [r.state.status, r.state.termination?.reason, !!r.state.report]).toEqual(['terminated', 'convergence', true]);
  });

  it('without "nothing further", the same reply gets its round: Codex has not said it is done', () => {
    let s = judged(withTwoPoints(), { ...points(['P1.1', skeptical], ['P1.2', agreeValue]), ...advance });
    s = reply(s, 'Re C1: I concede C1 in part. Point 1 gives the corrected version.\n\n1. Replaces P1.1: Redis persistence matters only for the weekly warm restart. INFERENCE');
    const r = judge(s, { ...points(['P2.1', agreeValue]), ...advance, synthesis: recommendation });
    expect(r.ok && [r.state.status, r.state.report]).toEqual(['active', undefined]);
    expect(r.ok && r.effects).toContain(HELD);
  });

  it('a verdict implies the in-scope triage, without a triage effect', () => {
    const r = judge(three(), points(['P1.1', agreeValue]));
    expect(r.ok && r.state.points[0]).toMatchObject({ triage: 'in-scope', status: 'agreed' });
    expect(r.ok && r.effects).toEqual(['P1.1 -> Agreed (n/a)']);
  });

  it('a bucket confirms the placement its AGREE verdict made; a different bucket is a second decision under the rules', () => {
    const s = judged(three(), points(['P1.1', { ...agreeValue, bucket: 'agreed' }]));
    expect(s.buckets.agreed.map((a) => a.pointId)).toEqual(['P1.1']);
    refusedWith(judge(three(), points(['P1.1', { ...agreeValue, bucket: 'dismissed', tag: 'FALSE' }])), 'position-stability');
  });

  it('what a refusal lists as legal is said of the state the judgment leaves', () => {
    // points[0] is refused, points[1] then places the same point: the actions are those of an Agreed point.
    const r = judge(three(), points(['P1.1', { verdict: 'SKEPTICAL' }], ['P1.1', agreeValue]));
    expect(refusedItem(r, 'articulation').legal).toEqual(['verdict', 'bucket']);
    // An item that names no point or challenge lists the tools legal now.
    const ledger = refusedItem(judge(three(), { ledger: [{ action: 'verify', factId: 'F9', outcome: 'confirmed', reference: 'x:1' }] }), 'unknown-fact');
    expect(ledger).toMatchObject({ ref: 'F9', legal: ['delib_judge'] });
  });

  it('a judgment with only refused items returns the state unchanged', () => {
    const s = three();
    const r = judge(s, points(['P1.1', { verdict: 'SKEPTICAL' }]));
    expect(r.ok && r.state).toBe(s);
  });

  it('malformed input refuses the whole move', () => {
    expect(refusedWith(apply(three(), 'judge', { points: [{ id: 'P1.1', verdict: 'MAYBE' }] }), 'invalid-input')).toEqual([]);
  });

  it('a challenge item refused names what that challenge may do now', () => {
    const s = judged(withTwoPoints(), { ...points(['P1.1', skeptical], ['P1.2', agreeValue]), ...advance });
    const defended = reply(s, 'Re C1: warm restarts matter. INFERENCE');
    const item = refusedItem(judge(defended, { challenges: [{ id: 'C1', verdict: 'rejected', reason: 'restarts are rare here' }] }), 'rejection-needs-evidence');
    expect(item).toMatchObject({ item: 'challenges[0]', ref: 'C1', legal: ['accepted', 'rejected', 'rebutted'] });
  });

  it('surfaces questions for the user the orchestrator writes itself (one asked inside a point, in the m8 trial)', () => {
    const r = judge(withTwoPoints(), { questions: ['Which ORM and migration tool does the team use?'] });
    expect(r.ok && r.effects).toEqual(['Q1 surfaced']);
    expect(r.ok && r.state.surfacedQuestions).toMatchObject([{ id: 'Q1', text: 'Which ORM and migration tool does the team use?' }]);
  });
});
