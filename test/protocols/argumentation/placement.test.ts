import { describe, expect, it } from 'vitest';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { advance, agreeEmpirical, agreeValue, judge, judged, points, refusedItem, reply, skeptical, withTwoPoints } from './helpers.js';

const rebut = { challenges: [{ id: 'C1', verdict: 'rebutted', reason: 'the argument does not change the facts' }] };
const holdRound = (s: DeliberationState) => judged(reply(s, 'Re C1: still holds. INFERENCE'), { ...rebut, ...advance });

/** P1.1 Agreed (value), P1.2 challenged by C1, n=1. */
function placed(): DeliberationState {
  return judged(withTwoPoints({ mode: 'standard' }), points(['P1.1', agreeValue], ['P1.2', skeptical]));
}

describe('issue 21, item 1: a repeated placement is refused, never silently dropped', () => {
  it('the same bucket again is refused already-placed and the state is left as it was', () => {
    const s = placed();
    const again = { bucket: 'agreed', claimType: 'value', evidenceType: 'n/a', reason: 'the team values simplicity most' };
    const r = judge(s, points(['P1.1', again]));
    expect(refusedItem(r, 'already-placed')).toMatchObject({ ref: 'P1.1', legal: ['verdict', 'bucket'] });
    // Nothing changed, so nothing is stored as a change: the very state comes back, updatedAt included.
    expect(r.ok && r.state).toBe(s);
    const dismissed = judged(s, points(['P1.1', { bucket: 'dismissed', tag: 'FALSE', reason: 'the benchmark contradicts it', revision: { from: 'AGREE', because: 'the benchmark came in today' } }]));
    refusedItem(judge(dismissed, points(['P1.1', { bucket: 'dismissed', tag: 'RISKY', reason: 'it is risky after all' }])), 'already-placed');
  });

  it('the same verdict with the same evidence is refused too; with new evidence it is an evidence update', () => {
    const s = judged(withTwoPoints(), points(['P1.1', agreeEmpirical]));
    refusedItem(judge(s, points(['P1.1', agreeEmpirical])), 'already-placed');
    // Only the spelling of an id differs: the same evidence.
    const cited = judged(s, { ledger: [{ action: 'add', text: 'Redis persists to disk', tag: 'user' }], ...points(['P1.2', { ...agreeEmpirical, evidence: 'F1' }]) });
    refusedItem(judge(cited, points(['P1.2', { ...agreeEmpirical, evidence: 'f 01' }])), 'already-placed');
    // A new reason alone is no new evidence.
    refusedItem(judge(s, points(['P1.1', { ...agreeEmpirical, reason: 'the docs state it in so many words' }])), 'already-placed');
    const r = judge(s, points(['P1.1', { ...agreeEmpirical, evidenceType: 'execution', evidence: 'redis-cli CONFIG GET save -> "3600 1"' }]));
    expect(r.ok && r.effects).toEqual(['P1.1 stays Agreed: evidence updated (execution)']);
    expect(r.ok && r.state.buckets.agreed).toEqual([expect.objectContaining({ pointId: 'P1.1', evidenceType: 'execution', evidence: 'redis-cli CONFIG GET save -> "3600 1"' })]);
    // No new position: the classification did not change.
    expect(r.ok && r.state.positions).toEqual(s.positions);
  });

  it('a verdict in the same item still makes its bucket a confirmation', () => {
    const r = judge(withTwoPoints(), points(['P1.1', { ...agreeValue, bucket: 'agreed' }]));
    expect(r.ok && r.effects).toEqual(['P1.1 -> Agreed (n/a)']);
  });

  it('a triage that repeats the recorded one changes nothing and says so', () => {
    const s = placed();
    const r = judge(s, points(['P1.1', { triage: 'in-scope' }]));
    expect(r.ok && [r.state === s, r.effects, r.refused]).toEqual([true, ['P1.1 unchanged: already triaged in-scope'], []]);
  });
});

describe('issue 21, item 2: a refused item names what is legal for it now, or plainly why nothing is', () => {
  it('a late point in Not Evaluated: bucket and verdict are refused alike, with why and no action to try', () => {
    const s0 = holdRound(holdRound(judged(withTwoPoints({ mode: 'standard' }), { ...points(['P1.1', skeptical], ['P1.2', agreeValue]), ...advance })));
    expect(s0.phase).toBe('DEVELOPMENT');
    const s = judged(reply(s0, 'Re C1: holds. INFERENCE\n1. A separate staffing argument. INFERENCE'), rebut);
    expect(s.points.find((p) => p.id === 'P4.1')?.status).toBe('not-evaluated');
    for (const item of [{ bucket: 'agreed', claimType: 'value', reason: 'staffing matters a great deal' }, agreeValue]) {
      const refused = refusedItem(judge(s, points(['P4.1', item])), 'not-evaluable');
      expect(refused.legal).toEqual([]);
      expect(refused.message).toMatch(/^P4\.1 is Not Evaluated \(phase-violation: a new argument after CONSTRUCTIVE stays out of the buckets\)/);
      expect(refused.whyNone).toBe(refused.message.replace(/\.$/, ''));
    }
  });

  it('a challenged point names the challenge it leaves through', () => {
    const s = placed();
    const r = refusedItem(judge(s, points(['P1.2', { bucket: 'dismissed', tag: 'FALSE', reason: 'contradicted by the docs' }])), 'defense-obligation');
    expect(r).toMatchObject({ legal: [], whyNone: "P1.2 is under C1 (open): it leaves through the consultee's answer to C1 in the next reply, not by a verdict or bucket of its own" });
    expect(refusedItem(judge(s, points(['P1.2', agreeValue])), 'challenge-pending').whyNone).toBe(r.whyNone);
  });

  it('a challenge not yet answered, an unknown point, an unknown challenge', () => {
    const s = placed();
    const open = refusedItem(judge(s, { challenges: [{ id: 'C1', verdict: 'accepted', claimType: 'value', reason: 'the defense is convincing now' }] }), 'no-defense-to-judge');
    expect(open).toMatchObject({ legal: [], whyNone: 'C1 is open: nothing to judge until the consultee answers it in a reply; deadlock becomes possible at iteration 4' });
    expect(refusedItem(judge(s, points(['p9.9', agreeValue])), 'unknown-point')).toMatchObject({ ref: 'P9.9', legal: [], whyNone: 'there is no point P9.9 (the points are P1.1, P1.2)' });
    expect(refusedItem(judge(s, { challenges: [{ id: 'c7', verdict: 'rebutted', reason: 'the numbers do not add up' }] }), 'unknown-challenge')).toMatchObject({ ref: 'C7', legal: [], whyNone: 'there is no challenge C7 (the challenges are C1)' });
  });
});
