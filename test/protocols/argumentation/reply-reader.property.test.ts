import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idsIn } from '../../../protocols/argumentation/reading/reply-answers.js';
import { readReply } from '../../../protocols/argumentation/reading/reply-reader.js';
import { loadCorpus, lostLines, norm, readCorpusReply } from './reading-corpus.js';
import { replyArb } from './reply-generator.js';

const ITERATION = 3;
const RUNS = 400;

describe('readReply (property): nothing emitted is lost', () => {
  it.each([false, true])('finds every point number and every answer, and lists every other id the text names (quick: %s)', (quick) => {
    fc.assert(
      fc.property(replyArb({ quick, iteration: ITERATION }), (r) => {
        const reading = readReply(r.text, { quick, iteration: ITERATION });
        const refs = reading.answers.map((a) => a.ref);
        // Exactly the points written, in order: a sub-list is no point, a restart no duplicate number.
        expect(reading.points.map((p) => p.number), r.text).toEqual(r.points);
        for (const id of r.answered) expect(refs, r.text).toContain(id);
        // Every id the text names is read as an answer to it, a point's mention, or a mention listed with its words.
        const mentions = new Map(reading.mentions.map((m) => [m.ref, m.text]));
        // (The reply's own point ids, "P3.1: ...", number its points.)
        const named = idsIn(r.text, quick).filter((id) => !id.startsWith(`P${ITERATION}.`));
        for (const id of [...new Set([...r.mentioned, ...named])]) {
          const inPoint = reading.points.some((p) => p.challengeMentions.includes(id) || p.pointRefs.includes(id));
          expect(refs.includes(id) || inPoint || mentions.get(id)?.includes(id), `${id} lost in:\n${r.text}`).toBe(true);
        }
        for (const [id, kind] of Object.entries(r.kinds)) expect(reading.answers.find((x) => x.ref === id)?.kind, `${id} in:\n${r.text}`).toBe(kind);
        for (const [id, claim] of Object.entries(r.narrowed)) {
          const a = reading.answers.find((x) => x.ref === id);
          expect(a?.kind, r.text).toBe('partial-concession');
          // A quoted challenge is never part of the claim kept.
          // Not cut out: none, never the whole answer (the orchestrator states it).
          if (claim === null) expect(a?.narrowedClaim, r.text).toBeUndefined();
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
