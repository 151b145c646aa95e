import { describe, expect, it } from 'vitest';
import { loadCorpus, mismatches } from './reading-corpus.js';

const corpus = loadCorpus();

describe('reply reading corpus', () => {
  it('holds replies', () => {
    expect(corpus.length).toBeGreaterThan(0);
  });

  for (const reply of corpus) {
    it(`reads ${reply.file} as annotated`, () => {
      const diff = mismatches(reply);
      expect(diff, `${reply.file}${reply.note ? ` (note: ${reply.note})` : ''}\n  ${diff.join('\n  ')}`).toEqual([]);
    });
  }
});
