import { isCurrent } from '../../../protocols/argumentation/core/claims.js';
import { describe, expect, it } from 'vitest';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { replyView } from '../../../protocols/argumentation/index.js';
import { advance, agreeValue, judge, judged, points, refusedWith, reply, skeptical, start, withTwoPoints } from './helpers.js';

const read = (ref: string, as: string, challenge?: string) => ({ reading: [{ ref, as, ...(challenge ? { challenge } : {}) }] });
const pending = (s: DeliberationState) => s.readings?.find((r) => r.iter === s.n)?.pending ?? [];
const REJECT = { verdict: 'REJECT', flaw: 'Persistence is off by default.', claimType: 'empirical', evidence: 'redis.conf:1 save ""', terminalWhy: 'the claim states the opposite of the default' };

/** n=2 with a challenge (C1, of `first`) open on P1.1 and P1.2 agreed. */
const challenged = (first: object = skeptical) => judged(withTwoPoints(), { ...points(['P1.1', first], ['P1.2', agreeValue]), ...advance });

describe('reading corrections', () => {
  it('reads an unnumbered section as a point, which the same judgment may judge', () => {
    const s = reply(start(), '1. Redis. INFERENCE\n2. Memcached. GUESS\n\n## Suggested rollout\nStart with one node and add replicas later.');
    expect(pending(s)).toMatchObject([{ ref: 'S1', kind: 'section', title: 'Suggested rollout' }]);
    const r = judged(s, { ...read('S1', 'point'), ...points(['P1.3', agreeValue]) });
    expect(r.points.at(-1)).toMatchObject({ id: 'P1.3', text: 'Suggested rollout: Start with one node and add replicas later.', status: 'agreed' });
    expect(pending(r)[0]?.resolved).toBe('point');
    expect(r.scope.newPoints).toBe(3);
    expect(replyView(r).reading).toBeUndefined();
    refusedWith(judge(r, read('S1', 'question')), 'already-read');
  });

  it('surfaces a question to the user', () => {
    const s = reply(start(), '1. Redis. INFERENCE\n\nWhat is your peak job rate?');
    expect(pending(s)).toMatchObject([{ ref: 'U1', kind: 'question', text: 'What is your peak job rate?' }]);
    const r = judged(s, read('U1', 'question'));
    expect(r.surfacedQuestions).toMatchObject([{ id: 'Q1', text: 'What is your peak job rate?' }]);
  });

  it('refuses refs that are not awaiting a reading and kinds a part cannot take', () => {
    const s = reply(start(), '1. Redis. INFERENCE\n\nWhat is your peak job rate?');
    expect(refusedWith(judge(s, read('S9', 'point')), 'unknown-reading-ref')).toEqual(['delib_judge']);
    refusedWith(judge(s, read('U1', 'concession')), 'reading-kind');
    refusedWith(judge(start(), read('U1', 'question')), 'no-reading');
  });

  it('reads a point that mentions an unanswered challenge as its defense: the point keeps its id as part of that answer, the reminder is undone', () => {
    const s = reply(challenged(), '1. This falls out of C1: warm restarts need persistence. INFERENCE');
    expect(s.challenges[0]).toMatchObject({ status: 'dropped', reminderSent: true });
    expect(pending(s)).toMatchObject([{ ref: 'P2.1', kind: 'mention', target: 'C1' }]);
    expect(s.scope.newPoints).toBe(1);
    const r = judged(s, read('P2.1', 'defense'));
    expect(r.points.filter(isCurrent).map((p) => p.id)).toEqual(['P1.1', 'P1.2']);
    expect(r.points.find((p) => p.id === 'P2.1')).toMatchObject({ status: 'part-of-answer', partOf: 'C1' });
    expect(r.challenges[0]).toMatchObject({ status: 'defended', reminderSent: false, defenseIter: 2, defense: expect.stringContaining('warm restarts need persistence') });
    expect(r.scope.newPoints).toBe(0);
    // Now it is judged like any defense.
    expect(judged(r, { challenges: [{ id: 'C1', verdict: 'accepted', claimType: 'value', reason: 'warm restarts matter for this team' }] }).buckets.agreed.map((a) => a.pointId)).toEqual(['P1.2', 'P1.1']);
  });

  it('reads the rest of a defense the reader took for a point or a section as that defense (2026-11-24 m4: a quote inside "Re C2")', () => {
    const s = reply(challenged(), 'Re C1: warm restarts matter here. INFERENCE\n\n1. "persistence is on by default since 7.0" EVIDENCE: redis.conf:1\n\n---\n\nSo the restart case stands.');
    expect(s.challenges[0]).toMatchObject({ status: 'defended', defenseIter: 2 });
    const section = pending(s).find((p) => p.kind === 'section')!;
    const r = judged(s, { reading: [{ ref: 'P2.1', as: 'defense', challenge: 'C1' }, { ref: section.ref, as: 'defense', challenge: 'C1' }] });
    expect(r.points.filter(isCurrent).map((p) => p.id)).toEqual(['P1.1', 'P1.2']);
    expect(r.scope.newPoints).toBe(0);
    expect(r.challenges[0]!.defense).toContain('warm restarts matter here');
    expect(r.challenges[0]!.defense).toContain('persistence is on by default since 7.0');
    expect(r.challenges[0]!.defense).toContain('So the restart case stands.');
    refusedWith(judge(r, read('P1.2', 'defense', 'C1')), 'unknown-reading-ref');
  });

  it('a REJECT dismissed as undefended by the reading comes back when the mention is read as its defense', () => {
    const s = reply(challenged(REJECT), '1. This falls out of C1: the default changed in 7.0. EVIDENCE: redis.conf:1');
    expect(s.buckets.dismissed).toMatchObject([{ pointId: 'P1.1', tag: 'UNDEFENDED' }]);
    const r = judged(s, read('P2.1', 'defense'));
    expect(r.buckets.dismissed).toEqual([]);
    expect(r.points.find((p) => p.id === 'P1.1')?.status).toBe('contested');
    expect(r.challenges[0]).toMatchObject({ status: 'defended' });
  });

  it('keeps a mention a point when so read, and refuses to read a judged point as a defense', () => {
    const s = reply(challenged(), '1. This falls out of C1: warm restarts need persistence. INFERENCE');
    expect(judged(s, read('P2.1', 'point')).points.map((p) => p.id)).toEqual(['P1.1', 'P1.2', 'P2.1']);
    const judgedPoint = judged(s, points(['P2.1', agreeValue]));
    refusedWith(judge(judgedPoint, read('P2.1', 'defense')), 'point-already-judged');
  });

  it('re-reads a defense as a concession, and back', () => {
    const defended = reply(challenged(), 'Re C1: warm restarts matter for us. INFERENCE');
    const conceded = judged(defended, read('C1', 'concession'));
    expect(conceded.challenges[0]?.status).toBe('conceded');
    expect(conceded.buckets.dismissed).toMatchObject([{ pointId: 'P1.1', tag: 'CONCEDED' }]);
    const back = judged(conceded, read('C1', 'defense'));
    expect(back.challenges[0]).toMatchObject({ status: 'defended', defense: expect.stringContaining('warm restarts matter') });
    expect(back.buckets.dismissed).toEqual([]);
    expect(back.points[0]?.status).toBe('contested');
  });

  it('re-reads a concession as a defense, keeping the words of the answer', () => {
    const conceded = reply(challenged(), 'Re C1: conceded. A pure cache loses nothing on restart.');
    expect(conceded.challenges[0]?.status).toBe('conceded');
    const back = judged(conceded, read('C1', 'defense'));
    expect(back.challenges[0]).toMatchObject({ status: 'defended', defense: expect.stringContaining('A pure cache loses nothing on restart') });
  });

  it('refuses to re-read a challenge this reply was not due to answer', () => {
    const s = judged(withTwoPoints(), points(['P1.1', skeptical]));
    refusedWith(judge(s, read('C1', 'defense')), 'challenge-not-answered-now');
  });

  it('appends a section the reader split off back to the point it continues (audit 12, r15)', () => {
    const s = reply(start(), '1. Redis persists. INFERENCE\n\n2. Memcached is simpler. INFERENCE\n\nThis is the stronger of the two: one less config to get wrong.');
    expect(pending(s)).toMatchObject([{ ref: 'S1', kind: 'section' }]);
    const r = judged(s, { reading: [{ ref: 'S1', as: 'point', point: 'P1.2' }] });
    expect(r.points.map((p) => p.id)).toEqual(['P1.1', 'P1.2']);
    expect(r.points[1]?.text).toBe('Memcached is simpler. INFERENCE\n\nThis is the stronger of the two: one less config to get wrong.');
    expect(r.scope.newPoints).toBe(2);
    const judgedPoint = judged(s, points(['P1.2', agreeValue]));
    refusedWith(judge(judgedPoint, { reading: [{ ref: 'S1', as: 'point', point: 'P1.2' }] }), 'point-already-judged');
    refusedWith(judge(s, { reading: [{ ref: 'S1', as: 'point', point: 'P9.9' }] }), 'point-already-judged');
  });

  it('lists a challenge named only outside any answer, and reads those words as its defense', () => {
    const s = reply(challenged(), 'On reflection the figure behind C1 came from F6, which is verified.\n\n1. Batching keeps the scan short. INFERENCE');
    expect(s.challenges[0]).toMatchObject({ status: 'dropped' });
    expect(pending(s)).toEqual([{ ref: 'M1', kind: 'mention', target: 'C1', text: 'On reflection the figure behind C1 came from F6, which is verified.' }]);
    expect(replyView(s).reading).toMatchObject([{ ref: 'M1', kind: 'mention', target: 'C1' }]);
    const r = judged(s, read('M1', 'defense'));
    expect(r.challenges[0]).toMatchObject({ status: 'defended', defenseIter: 2, reminderSent: false, defense: expect.stringContaining('F6') });
    expect(r.points.map((p) => p.id)).toEqual(['P1.1', 'P1.2', 'P2.1']);
  });

  it('reads a concession back as a partial one: the narrowed claim goes to the judgment and the report (the m7 trial)', () => {
    const s = reply(challenged(), 'Re C1: I concede C1. The 40% was wrong. Batching halves the scan time on F6.');
    const before = s.challenges[0]!.status;
    const r = judged(s, read('C1', 'partial'));
    // Nothing here says which part is kept: no narrowed claim is guessed, so accepting it asks for the claim.
    expect([before, r.challenges[0]]).toMatchObject(['conceded', { status: 'defended', partial: true }]);
    expect(r.challenges[0]!.narrowedClaim).toBeUndefined();
    expect(replyView(r).answers).toMatchObject([{ challenge: 'C1', partialConcession: true }]);
    const accept = { id: 'C1', verdict: 'accepted' as const, claimType: 'value' as const, reason: 'halving the scan time still matters here' };
    refusedWith(judge(r, { challenges: [accept] }), 'narrowed-claim-required');
    const stated = judged(r, { challenges: [{ ...accept, claim: 'Batching halves the scan time on F6.' }] });
    expect(stated.points[0]).toMatchObject({ status: 'agreed', narrowed: 'Batching halves the scan time on F6.' });
  });

  it('shows the words behind each concession it applied, so that a defense misread as one can be read back', () => {
    const s = reply(challenged(), 'Re C1: conceded.');
    expect(replyView(s).conceded).toMatchObject([{ challenge: 'C1', point: 'P1.1', text: 'Re C1: conceded.' }]);
    const back = judged(s, read('C1', 'defense'));
    expect(replyView(back).conceded).toBeUndefined();
  });

  it('in quick mode, lists a contested point named without an answer and re-reads a concession as a defense', () => {
    const objected = judged(withTwoPoints({ mode: 'quick' }), { ...points(['P1.1', skeptical], ['P1.2', agreeValue]), ...advance });
    const mentioned = reply(objected, 'Short version: P1.1 still holds, see F6.\n\n1. Also consider pg-boss. GUESS');
    expect(pending(mentioned)).toMatchObject([{ ref: 'M1', kind: 'mention', target: 'P1.1' }]);
    expect(judged(mentioned, read('M1', 'defense')).points[0]).toMatchObject({ status: 'contested', defense: expect.stringContaining('F6') });

    const conceded = reply(objected, 'Re P1.1: conceded.');
    expect(replyView(conceded).conceded).toMatchObject([{ point: 'P1.1', text: 'Re P1.1: conceded.' }]);
    const back = judged(conceded, read('P1.1', 'defense'));
    expect(back.points[0]).toMatchObject({ status: 'contested', defense: 'Re P1.1: conceded.' });
    expect(back.buckets.dismissed).toEqual([]);
    refusedWith(judge(objected, read('P1.1', 'defense')), 'no-reading');
  });
});
