import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readReply } from '../../../protocols/argumentation/reply-reader.js';
import { loadCorpus, lostLines, norm, readCorpusReply } from './reading-corpus.js';
import { replyArb } from './reply-generator.js';

const ITERATION = 3;
const RUNS = 400;

describe('readReply (property): nothing emitted is lost', () => {
  it.each([false, true])('finds every point number, every answered id and every mentioned id (quick: %s)', (quick) => {
    fc.assert(
      fc.property(replyArb({ quick, iteration: ITERATION }), (r) => {
        const reading = readReply(r.text, { quick, iteration: ITERATION });
        const refs = reading.answers.map((a) => a.ref);
        // Exactly the points written, in order: a sub-list is no point, a restart no duplicate number.
        expect(reading.points.map((p) => p.number), r.text).toEqual(r.points);
        for (const id of r.answered) expect(refs, r.text).toContain(id);
        const texts = [reading.headline ?? '', ...reading.sections.map((s) => `${s.title}\n${s.text}`), ...reading.questions];
        for (const id of r.mentioned) {
          const inPoint = reading.points.some((p) => p.challengeMentions.includes(id) || p.pointRefs.includes(id));
          const found = refs.includes(id) || inPoint || texts.some((t) => t.includes(id));
          expect(found, `${id} lost in:\n${r.text}`).toBe(true);
        }
        for (const [id, claim] of Object.entries(r.narrowed)) {
          const a = reading.answers.find((x) => x.ref === id);
          expect(a?.kind, r.text).toBe('partial-concession');
          if (claim === null) expect(a?.narrowedClaim, r.text).toBe(a?.text);
          else expect(norm(a?.narrowedClaim ?? ''), r.text).toMatch(new RegExp(`^${norm(claim).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it.each([false, true])('loses no line of a generated reply (quick: %s)', (quick) => {
    fc.assert(
      fc.property(replyArb({ quick, iteration: ITERATION }), (r) => {
        expect(lostLines(r.text, readReply(r.text, { quick, iteration: ITERATION })), r.text).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it('loses no line of a corpus reply', () => {
    const lost = loadCorpus().flatMap((reply) => lostLines(reply.text, readCorpusReply(reply)).map((line) => `${reply.file}: ${line}`));
    expect(lost).toEqual([]);
  });
});
