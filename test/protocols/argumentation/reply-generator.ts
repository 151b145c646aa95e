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
  /** Answers whose kind is certain whatever follows them. */
  kinds: Record<string, 'defense' | 'partial-concession' | 'concession'>;
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

/** How an answer names its id, around what it says (lone forms say nothing more). */
const answerForm = fc.constantFrom(
  (id: string, said: string) => `Re ${id}: ${said}`,
  (id: string, said: string) => `**Re ${id}:** ${said}`,
  (id: string, said: string) => `Regarding ${id} — ${said}`,
  (id: string, said: string) => `On ${id}, ${said}`,
  (id: string, said: string) => `### ${id}\n${said}`,
  (id: string, said: string) => `### Re ${id}\n${said}`,
  (id: string, said: string) => `Response to ${id}: ${said}`,
  (id: string, said: string) => `${id} (defense): ${said}`,
  (id: string, said: string) => `**${id}:** ${said}`,
  (id: string, said: string) => `[${id}] ${said}`,
  (id: string, said: string) => `2. Re ${id}: ${said}`,
  (id: string) => `I concede ${id}.`,
  (id: string, said: string) => `- **${id} (SKEPTICAL, on P2.3)** — ${said}`,
  (id: string, said: string) => `On the throughput question (${id}): ${said}`,
  (id: string, said: string) => `| ${id} | ${said} | INFERENCE |`,
  // The challenge quoted back, then answered: the quote is not the consultee's stance.
  (id: string, said: string) => `> **${id} (SKEPTICAL):** No measurement; withdraw the claim or narrow it to small tables.\n\n${said}`,
);
const LONE = 'I concede ';
// A line answering several ids in turn ("C1: conceded. C2: stands. C3: withdrawn.").
const inlineForm = fc.constantFrom((id: string, said: string) => `${id}: ${said}`, (id: string, said: string) => `Re ${id}: ${said}`);

type Kind = 'defense' | 'partial-concession' | 'concession';
/** What the answer says; for a partial concession the claim it keeps (null: only the whole text); the kind when it is certain. */
const stance = fc.constantFrom<[string, string | null | undefined, Kind?]>(
  ['conceded.', undefined],
  ["I don't concede.", undefined],
  ['Partly conceded: the figure goes, the mechanism stays.', null],
  ["You're right; withdrawn.", undefined],
  ['The numbers hold.', undefined],
  ['I concede the 1k figure, but the degradation under heavy churn stands.', 'the degradation under heavy churn stands.'],
  ['I concede the 1k figure, but that narrower claim stands.', null],
  ['Partly conceded. Narrowed claim: it degrades only under churn.', 'it degrades only under churn.'],
  ['', undefined],
  ["Fair challenge — I've since measured it: 39% fewer round trips (EVIDENCE: bench.txt:14).", undefined, 'defense'],
  ['Not agreed. The figure comes from F6.', undefined, 'defense'],
  ["I'm not sure I accept that framing.", undefined, 'defense'],
  ["You're right that the bench ran on NVMe, but it doesn't change the recommendation.", null, 'partial-concession'],
  ['I concede the number. The mechanism is unaffected.', null, 'partial-concession'],
  ["I'll narrow this: only tables under 5M rows a day.", 'only tables under 5M rows a day.', 'partial-concession'],
);
// Sometimes an answer names another id in passing ("See also C4.").
const aside = fc.option(fc.constant('See also '), { nil: undefined });
const answer = fc.record({ form: answerForm, inline: inlineForm, stance, body: sentences, aside });

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
const nothingFurther = fc.constantFrom("\n\nI don't have any further points.", '\n\n(No further points.)', '\n\nI agree; no further comments.');

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
      headlineMention: fc.option(id, { nil: undefined }),
      asideId: id,
      inline: fc.boolean(),
      nothingFurther: fc.option(nothingFurther, { nil: undefined }),
    })
    .map(({ headline, marker, answers, order, points, container, trailing, sectionMention, headlineMention, asideId, inline, nothingFurther }): Emitted => {
      const parts: string[] = [];
      const mentioned: string[] = [];
      const narrowed: Record<string, string | null> = {};
      const kinds: Record<string, Kind> = {};
      if (container && points.length > 0) parts.push(container);
      points.forEach((p, i) => {
        const seen = p.mention ? ` This falls out of ${p.mention}: the lag grows.` : '';
        if (p.mention) mentioned.push(p.mention);
        parts.push(`${marker(i + 1)}${p.label}${p.body}${seen}${p.ref}${p.nested}`);
      });
      // Answers usually come first; some replies put one between or after the points, or all on one line.
      const say = (ref: string, a: (typeof answers)[number][1], lone: boolean): string => {
        if (lone) return '';
        if (a.stance[1] !== undefined) narrowed[ref] = a.stance[1];
        if (a.stance[2]) kinds[ref] = a.stance[2];
        if (a.aside) mentioned.push(asideId);
        return `${a.stance[0]} ${a.body}${a.aside ? ` ${a.aside}${asideId}.` : ''}`.trim();
      };
      if (inline && answers.length > 0) parts.unshift(answers.map(([ref, a]) => a.inline(ref, say(ref, a, false))).join(' '));
      else {
        answers.forEach(([ref, a], i) => {
          const text = a.form(ref, say(ref, a, a.form(ref, '').startsWith(LONE)));
          const at = (order[i] ?? 0) % 3 === 0 ? Math.min(i, parts.length) : parts.length - ((order[i] ?? 0) % (parts.length + 1));
          parts.splice(Math.max(0, at), 0, text);
        });
      }
      let tail = trailing.join('') + (nothingFurther ?? '');
      if (sectionMention) {
        tail += `\n\nBottom line: ${sectionMention} does not change the pick.`;
        mentioned.push(sectionMention);
      }
      if (headlineMention) mentioned.push(headlineMention);
      const lead = headlineMention ? `Short version: ${headlineMention} changes nothing.\n\n${headline}` : headline;
      return { text: `${lead}${parts.join('\n\n')}${tail}`, points: points.map((_, i) => i + 1), answered: answers.map(([ref]) => ref), mentioned, narrowed, kinds };
    });
}
