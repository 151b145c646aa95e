import { describe, expect, it } from 'vitest';
import { answerKind, narrowedClaim } from '../../../protocols/argumentation/reading/reply-answers.js';
import { readReply, type ReadContext } from '../../../protocols/argumentation/reading/reply-reader.js';

// Issue 27's measure: replies written by minds that never saw the corpus or the reader (corpus fresh-*.md),
// each misreading fixed here in the mind's own words.
const quick: ReadContext = { quick: true, iteration: 2 };

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

  it('a "still" in what is conceded ("a CJS build still buys you two groups:") cuts out no kept claim', () => {
    const text =
      'Re P1.1: I concede the "gains nothing" part and keep the verdict. The verdict now rests on a different argument: the losses are real.\n' +
      '   - INFERENCE: a CJS build still buys you two groups of users:\n     - CJS consumers on Node 20.0–20.18;';
    expect(narrowedClaim(text)).toBeUndefined();
  });

  it('a "**Kept:**" bullet states the kept claim', () => {
    const text = 'Re P1.3: I concede the two parts you name and keep the principle underneath them.\n   - **Marking (conceded).** A bare 503 passed upward looks retryable.\n   - **Kept:** retry at exactly one layer per failure.';
    expect(narrowedClaim(text)).toBe('retry at exactly one layer per failure.');
  });
});

describe('items after an answer that is itself an item of the list (fresh minds m1, m2)', () => {
  const parts = (text: string, context: ReadContext = quick) => readReply(text, context).points.map((p) => [p.number, p.partOf ?? null]);

  it('go on with the answer, each read as one of its items', () => {
    const text =
      '1. EVIDENCE — Re P1.8: I concede it. I reproduced your numbers.\n\n' +
      '2. INFERENCE — Revised defaults, sized from time: per type `retry_deadline`, `base`, `cap`.\n\n' +
      '3. INFERENCE — The recommendation itself is unchanged: exponential backoff with full jitter over fixed 30 s. P1.8 moves the sizing knob, not the choice.';
    expect(parts(text)).toEqual([[2, 'P1.8'], [3, 'P1.8']]);
    const standard = '1. EVIDENCE — I concede C1. P1.6 describes better-sqlite3 ≤12.x.\n\n2. INFERENCE — One piece of P1.6 carries over as a pinning requirement rather than an objection.';
    expect(parts(standard, { iteration: 2 })).toEqual([[2, 'C1']]);
  });

  it('stop at an item marked new, a new version of a point, a conclusion, or one that builds on another point', () => {
    expect(parts('1. Re P1.8: I concede part of it.\n\n2. INFERENCE, new: for the flaky third-party job types, use a floor.\n\n3. INFERENCE: the fix is small.')).toEqual([[2, null], [3, null]]);
    expect(parts('1. Re C2: I concede part of it.\n\n2. INFERENCE (new): choosing D now doesn\'t rule out SQLite later.', { iteration: 2 })).toEqual([[2, null]]);
    expect(parts('1. Re P1.1: I concede the "gains nothing" part and keep the verdict.\n\n2. EVIDENCE: the Node part of the loss is narrower.\n\n3. INFERENCE, final answer: **ship v3 as ESM-only.**')).toEqual([[2, 'P1.1'], [3, null]]);
    expect(parts('1. Re C2: I concede part of it.\n\n2. INFERENCE, revised P1.13, which replaces the old recommendation: default D.', { iteration: 2 })).toEqual([[2, null]]);
    // claude-16: the item after "2. Re C2: Conceded. ... I withdraw P1.3." builds on P2.2.
    expect(parts('2. Re C2: Conceded. I withdraw P1.3.\n\n3. INFERENCE — P2.2 has a cheap fix that doesn\'t need a service mesh.', { iteration: 3 })).toEqual([[3, null]]);
  });

  it('an item that says what the answer keeps makes it a partial concession, that item its kept claim', () => {
    const text =
      '1. EVIDENCE — Re P1.1: I concede that "gains nothing" is wrong. A CJS build still serves two groups.\n\n' +
      '2. INFERENCE — I keep the verdict: ESM-only for v3. It now rests on those losses being acceptable in a major, not on zero gain.';
    const [answer] = readReply(text, quick).answers;
    expect([answer?.kind, answer?.narrowedClaim]).toEqual(['partial-concession', 'ESM-only for v3. It now rests on those losses being acceptable in a major, not on zero gain.']);
    const part = readReply('1. Re P1.8: I concede part of it.\n\n2. INFERENCE, the part I keep: `max_attempts` stays, but as a hard secondary cap rather than the sizing knob.', quick).answers[0];
    expect(part?.narrowedClaim).toBe('`max_attempts` stays, but as a hard secondary cap rather than the sizing knob.');
  });
});
