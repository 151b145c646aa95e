import { describe, expect, it } from 'vitest';
import { readReply } from '../../../protocols/argumentation/index.js';

/** Cases of the retired reply-parser tests that the reader tests do not cover, kept against readReply. */
const answers = (text: string) => readReply(text).answers.map((a) => [a.ref, a.kind]);

describe('readReply: forms the retired parser was tested on', () => {
  it('reads a bare "C2:" and "Regarding C3," as answers', () => {
    expect(answers('Re C1: the benchmark covers it. EVIDENCE\n\nC2: I still hold this. INFERENCE\n\nRegarding C3, see the docs. EVIDENCE')).toEqual([
      ['C1', 'defense'],
      ['C2', 'defense'],
      ['C3', 'defense'],
    ]);
  });

  it('reads numbered concessions and a negated one as a defense', () => {
    const r = readReply('1. I concede C1; the point was wrong.\n2. Re C2: I do not concede C2, the numbers hold. EVIDENCE\n3. C4: conceded.');
    expect(r.answers.map((a) => [a.ref, a.kind])).toEqual([
      ['C1', 'concession'],
      ['C2', 'defense'],
      ['C4', 'concession'],
    ]);
    expect(r.points).toEqual([]);
  });

  it('takes neither AC1200 nor MC2 for a challenge id', () => {
    const r = readReply('1. Use AC1200 routers and MC2 chips. GUESS');
    expect([r.answers, r.points[0]?.challengeMentions]).toEqual([[], []]);
  });

  it('finds nothing structured in free prose', () => {
    const r = readReply('I think Redis is fine overall.');
    expect([r.points, r.answers, r.nothingFurther]).toEqual([[], [], false]);
  });
});
