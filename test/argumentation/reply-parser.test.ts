import { describe, expect, it } from 'vitest';
import { parseConsulteeReply } from '../../protocols/argumentation/index.js';

describe('parseConsulteeReply', () => {
  it('finds numbered points with continuation lines and their labels', () => {
    const r = parseConsulteeReply('Intro line.\n\n1. First claim EVIDENCE: src/a.ts:10\n   continued here\n2) Second claim (GUESS)\n**3.** Third, builds on P1.2. INFERENCE');
    expect(r.points.map((p) => [p.number, p.label])).toEqual([
      [1, 'EVIDENCE'],
      [2, 'GUESS'],
      [3, 'INFERENCE'],
    ]);
    expect(r.points[0]?.text).toContain('continued here');
    expect(r.points[2]?.pointRefs).toEqual(['P1.2']);
    expect(r.labels).toEqual({ EVIDENCE: 1, INFERENCE: 1, GUESS: 1 });
  });

  it('finds challenge references in the three forms', () => {
    const r = parseConsulteeReply('Re C1: the benchmark covers it. EVIDENCE\n\nC2: I still hold this. INFERENCE\n\nRegarding C3, see the docs. EVIDENCE');
    expect(r.challengeRefs.map((c) => c.id).sort()).toEqual(['C1', 'C2', 'C3']);
    expect(r.challengeRefs.find((c) => c.id === 'C1')?.text).toContain('benchmark');
    expect(r.concessions).toEqual([]);
  });

  it('detects explicit concessions and ignores negated ones', () => {
    const r = parseConsulteeReply('1. I concede C1; the point was wrong.\n2. Re C2: I do not concede C2, the numbers hold. EVIDENCE\n3. C4: conceded.');
    expect(r.concessions.sort()).toEqual(['C1', 'C4']);
    expect(r.challengeRefs.map((c) => c.id).sort()).toEqual(['C1', 'C2', 'C4']);
  });

  it('does not treat a word containing C plus digits as a reference', () => {
    const r = parseConsulteeReply('1. Use AC1200 routers and MC2 chips. GUESS');
    expect(r.challengeRefs).toEqual([]);
  });

  it('flags verification claims without a label', () => {
    const r = parseConsulteeReply('1. I ran the tests and they pass.\n2. I ran it too. EVIDENCE: `npm test` -> 12 passed');
    expect(r.unlabeledVerificationClaims).toEqual([1]);
  });

  it('returns nothing structured for free prose', () => {
    const r = parseConsulteeReply('I think Redis is fine overall.');
    expect(r.points).toEqual([]);
    expect(r.challengeRefs).toEqual([]);
  });
});
