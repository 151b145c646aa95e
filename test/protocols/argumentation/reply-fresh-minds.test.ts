import { describe, expect, it } from 'vitest';
import { answerKind, narrowedClaim } from '../../../protocols/argumentation/reading/reply-answers.js';
import { readReply } from '../../../protocols/argumentation/reading/reply-reader.js';

// Issue 27's measure: replies written by minds that never saw the corpus or the reader (corpus fresh-*.md),
// each misreading fixed here in the mind's own words.
const quick = { quick: true, iteration: 2 };

describe('a label ahead of the answer (fresh mind m2)', () => {
  it('"N. EVIDENCE — Re P1.8: ..." and "N. INFERENCE — I concede C2." are answers, not points', () => {
    const q = readReply('1. EVIDENCE — Re P1.8: I concede it. I reproduced your numbers (node, 200k runs).', quick);
    expect(q.points).toEqual([]);
    expect(q.answers.map((a) => [a.ref, a.kind])).toEqual([['P1.8', 'concession']]);
    const s = readReply('1. EVIDENCE — I concede C1. F9 and F10 settle it.\n\n2. INFERENCE — I concede C2. Withdraw "Do not do B".', { iteration: 2 });
    expect(s.points).toEqual([]);
    expect(s.answers.map((a) => [a.ref, a.kind])).toEqual([['C1', 'concession'], ['C2', 'concession']]);
  });

  it('"N. INFERENCE — Nothing further." says there is nothing further, and is no point', () => {
    const r = readReply('1. EVIDENCE — Re P1.3: I concede it. Both parts hold.\n\n2. INFERENCE — Nothing further. The rest of the earlier answer (P1.1, P1.2, P1.4–P1.6) stands as agreed.', quick);
    expect(r.points).toEqual([]);
    expect(r.nothingFurther).toBe(true);
    expect(r.sections.map((s) => s.text).join('\n')).toContain('stands as agreed');
    // A labeled claim that only opens like it is a point.
    const claim = readReply('1. INFERENCE: Speed: B wins by a wide margin on every workload.\n2. GUESS: Nothing else matters.');
    expect([claim.points.map((p) => p.number), claim.nothingFurther]).toEqual([[1, 2], false]);
  });
});

describe('what an answer gives up (fresh minds m1 and m3)', () => {
  it('"I concede the X part and keep the verdict" is a partial concession, never a full one', () => {
    expect(answerKind('Re P1.1: I concede the "gains nothing" part and keep the verdict. The verdict now rests on a different argument.')).toBe('partial-concession');
    expect(answerKind('Re P1.3: I concede the two parts you name and keep the principle underneath them.')).toBe('partial-concession');
  });

  it('a reason dropped ("I drop it as a reason") is not the claim given up', () => {
    const kept =
      'Re P1.1: I keep the verdict, ESM only for v3. Your objection is fair in one respect: "gains nothing" is too broad as a blanket statement. ' +
      'The verdict doesn\'t depend on zero gain, though. It depends on who the second build would actually serve, and on that I still hold P1.1.\n' +
      '   - The dual-package hazard is indeed close to harmless for stateless functions, so I drop it as a reason.';
    expect(answerKind(kept)).toBe('defense');
    expect(answerKind('Re P1.1: Fair — I drop P1.1.')).toBe('concession');
  });
});

describe('the claim a partial concession keeps (fresh minds m1, m3)', () => {
  it('"I still rank D above B, for reasons ...:" keeps the ranking, not its first reason', () => {
    const text = 'Re C2: I concede part of it. I drop "Do not do B under these constraints". I still rank D above B, for reasons that have nothing to do with installing:\n   - EVIDENCE (F10): the 13.x binary has never been loaded successfully.';
    expect(narrowedClaim(text)).toMatch(/^I still rank D above B/);
  });

  it('"What I still hold is that ..." and "What I still hold from P1.6 ...:" state the kept claim', () => {
    expect(narrowedClaim('Re C1: I concede the part about step d as written. What I still hold is that this check can be enforced mechanically in this sprint.')).toBe(
      'this check can be enforced mechanically in this sprint.',
    );
    expect(narrowedClaim('Re C1: I concede part of it.\n   What I still hold from P1.6 has two parts:\n   - the failure is still accurate for 12.x.')).toMatch(/^- the failure is still accurate for 12\.x\.$/);
  });

  it('a "**Kept:**" bullet states the kept claim', () => {
    const text = 'Re P1.3: I concede the two parts you name and keep the principle underneath them.\n   - **Marking (conceded).** A bare 503 passed upward looks retryable.\n   - **Kept:** retry at exactly one layer per failure.';
    expect(narrowedClaim(text)).toBe('retry at exactly one layer per failure.');
  });
});
