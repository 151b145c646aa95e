import { describe, expect, it } from 'vitest';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { agreeEmpirical, agreeValue, judge, judged, points, refusedItem, skeptical, withTwoPoints } from './helpers.js';

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
