import { describe, expect, it } from 'vitest';
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
  });
});
