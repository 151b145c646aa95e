import fc from 'fast-check';

// Replies assembled from the fragments real models write; the generator remembers what it emitted.
// Shared by the reader's property test and the engine's (reply-record.property.test.ts).
export interface Emitted {
  text: string;
  points: number[];
  answered: string[];
  mentioned: string[];
  /** Partial concessions by id: the claim kept, or null when only the whole answer can stand for it. */
  narrowed: Record<string, string | null>;
}

export interface ReplyOptions {
  quick: boolean;
  /** The iteration the reply answers: some replies then number their points by id ("P3.1 —"). */
  iteration: number;
  /** The ids answers and mentions use: challenge ids, or in quick mode earlier point ids. */
  ids?: fc.Arbitrary<string>;
}

const filler = fc.constantFrom(
  'The team already runs Postgres 16 in production.',
  'Vacuum settings matter more than the queue library.',
  'That removes a whole class of dual-write bugs.',
  'At five people, on-call load is the binding constraint.',
  'Fan-out is the one place Redis Streams is clearly ahead.',
  'A partial index on pending rows keeps the scan short.',
  'I have not measured this on your hardware.',
);
const sentences = fc.array(filler, { minLength: 1, maxLength: 3 }).map((s) => s.join(' '));
export const challengeIds = fc.integer({ min: 1, max: 12 }).map((n) => `C${n}`);
/** Earlier points' ids (objections in quick mode are answered by them). */
const earlierPointIds = (iteration: number) =>
  fc.tuple(fc.integer({ min: 1, max: Math.max(1, iteration - 1) }), fc.integer({ min: 1, max: 9 })).map(([i, n]) => `P${i}.${n}`);
const label = fc.constantFrom('EVIDENCE: ', '**Inference:** ', '[GUESS] ', 'Guess — ', '(INFERENCE) ', '*evidence:* ', '');
const markers = (iteration: number) =>
  fc.constantFrom(
    (n: number) => `${n}. `,
    (n: number) => `${n}) `,
    (n: number) => `**${n}.** `,
    (n: number) => `**${n}. Throughput**\n`,
    (n: number) => `### ${n}.\n`,
    (n: number) => `### ${n}. Cost of operations\n`,
    (n: number) => `Point ${n}: `,
    (n: number) => `**Point ${n} —** `,
    (n: number) => `**P${iteration}.${n}** — `,
    (n: number) => `P${iteration}.${n}: `,
  );
const nested = fc.constantFrom(
  '',
  '\n   - a nested detail\n   - another detail',
  '\n   1. first step\n   2. second step',
  '\n1) add the column\n2) backfill the rows',
  '\n1. add the column\n2. backfill the rows',
  '\n# psql -c "select count(*) from jobs"\ncount: 1204',
  '\n\n   ```sql\n   select 1;\n   ```',
  '\n   > quoted docs line',
);
const container = fc.constantFrom('', '## New points', 'New points:', '# Extensions', '**Findings**');

const answerForm = fc.constantFrom(
  (id: string) => `Re ${id}: `,
  (id: string) => `**Re ${id}:** `,
  (id: string) => `Regarding ${id} — `,
  (id: string) => `On ${id}, `,
  (id: string) => `### ${id}\n`,
  (id: string) => `### Re ${id}\n`,
  (id: string) => `Response to ${id}: `,
  (id: string) => `${id} (defense): `,
  (id: string) => `**${id}:** `,
  (id: string) => `[${id}] `,
  (id: string) => `2. Re ${id}: `,
  (id: string) => `I concede ${id}.`,
  (id: string) => `- **${id} (SKEPTICAL, on P2.3)** — `,
);
/** What the answer says, and for a partial concession the claim it keeps (null: only the whole text). */
const stance = fc.constantFrom<[string, string | null | undefined]>(
  ['conceded.', undefined],
  ["I don't concede.", undefined],
  ['Partly conceded: the figure goes, the mechanism stays.', null],
  ["You're right; withdrawn.", undefined],
  ['The numbers hold.', undefined],
  ['I concede the 1k figure, but the degradation under heavy churn stands.', 'the degradation under heavy churn stands.'],
  ['I concede the 1k figure, but that narrower claim stands.', null],
  ['Partly conceded. Narrowed claim: it degrades only under churn.', 'it degrades only under churn.'],
  ['', undefined],
);
const answer = fc.record({ form: answerForm, stance, body: sentences });

const trailing = fc.constantFrom(
  '',
  '\n\nOverall, Postgres wins at this size.',
  '\n\n**Recommendation**\nPostgres with SKIP LOCKED.',
  '\n\n## Suggested rollout\n1. Add the jobs table.\n2. Ship the worker.',
  '\n\nDo you already run Redis anywhere?',
  '\n\nWhich Kong edition are you on? That decides between rows 2 and 4.',
  '\n\nWant me to sketch the schema?',
  '\n\nNo further points.',
  '\n\nTL;DR: Postgres.',
  '\n\n## Appendix',
);
const headline = fc.constantFrom('', 'Short answer: Postgres.\n\n', 'Here are my points:\n\n', '');

export function replyArb({ quick, iteration, ids }: ReplyOptions): fc.Arbitrary<Emitted> {
  const id = ids ?? (quick ? earlierPointIds(iteration) : challengeIds);
  const point = fc.record({ label, body: sentences, nested, mention: fc.option(id, { nil: undefined }), ref: fc.constantFrom('', ' Extends P2.1.') });
  return fc
    .record({
      headline,
      // One numbering style per reply, as models write.
      marker: markers(iteration),
      answers: fc.uniqueArray(fc.tuple(id, answer), { selector: ([i]) => i, maxLength: 4 }),
      order: fc.array(fc.nat(), { maxLength: 4 }),
      points: fc.array(point, { maxLength: 6 }),
      container,
      trailing: fc.array(trailing, { maxLength: 3 }),
      sectionMention: fc.option(id, { nil: undefined }),
    })
    .map(({ headline, marker, answers, order, points, container, trailing, sectionMention }): Emitted => {
      const parts: string[] = [];
      const mentioned: string[] = [];
      const narrowed: Record<string, string | null> = {};
      if (container && points.length > 0) parts.push(container);
      points.forEach((p, i) => {
        const seen = p.mention ? ` This falls out of ${p.mention}: the lag grows.` : '';
        if (p.mention) mentioned.push(p.mention);
        parts.push(`${marker(i + 1)}${p.label}${p.body}${seen}${p.ref}${p.nested}`);
      });
      // Answers usually come first; some replies put one between or after the points.
      answers.forEach(([ref, a], i) => {
        const lone = a.form(ref).startsWith('I concede');
        const text = lone ? a.form(ref) : `${a.form(ref)}${a.stance[0]} ${a.body}`.trim();
        if (!lone && a.stance[1] !== undefined) narrowed[ref] = a.stance[1];
        const at = (order[i] ?? 0) % 3 === 0 ? Math.min(i, parts.length) : parts.length - ((order[i] ?? 0) % (parts.length + 1));
        parts.splice(Math.max(0, at), 0, text);
      });
      let tail = trailing.join('');
      if (sectionMention) {
        tail += `\n\nBottom line: ${sectionMention} does not change the pick.`;
        mentioned.push(sectionMention);
      }
      return { text: `${headline}${parts.join('\n\n')}${tail}`, points: points.map((_, i) => i + 1), answered: answers.map(([ref]) => ref), mentioned, narrowed };
    });
}
