/**
 * The demo model as the argumentation consultee (reached through Codex CLI): numbered, labelled
 * points on the first call, a defense of each SKEPTICAL challenge by id (a second time, that only a
 * measurement can settle it), a concession of each REJECT, and "No further points." when nothing is
 * open. Written for the demo's own question (a cache in front of Postgres) and in general terms for
 * any other.
 */
import { subjectOf } from './pick.js';

const CACHE_POINTS = [
  'Short answer: not yet. Measure where the time goes first.',
  '',
  '1. INFERENCE: The catalogue is read on every page and changes a few times a day, so a cache would absorb nearly all of its reads.',
  '2. GUESS: Postgres already serves these reads from its own buffer cache; the hot catalogue rows fit in memory many times over.',
  '3. INFERENCE: A second datastore brings invalidation bugs, and a stale price is worse for a shop than a slow page.',
  '4. INFERENCE: Measure p95 latency of the catalogue endpoint first and add Redis only if the database is where the time goes.',
  '5. GUESS: Redis is always faster than Postgres for reads.',
].join('\n');

const CACHE_DEFENSES: [RegExp, string, string][] = [
  [
    /buffer cache/i,
    'Re C{id}: Partly conceded. Narrowed claim: with the default settings Postgres keeps a catalogue of a few MB in memory after warm-up; whether your server does depends on its shared_buffers.\nEVIDENCE: postgresql.conf.sample "#shared_buffers = 128MB"',
    'Re C{id}: INFERENCE: I keep the narrowed claim, but only the p95 of the catalogue query under production load shows whether the database is the bottleneck.',
  ],
];

function generalPoints(question: string): string {
  const subject = subjectOf(question);
  return [
    `Short answer: it depends on one measurement; here is how I would decide "${subject}".`,
    '',
    `1. INFERENCE: The main benefit of "${subject}" arrives only if the problem it solves is the one that actually costs you time or money.`,
    '2. GUESS: The current approach is probably good enough for the present load.',
    '3. INFERENCE: Every added moving part costs operations time for as long as it runs.',
    '4. INFERENCE: A small, reversible trial gives the missing number before the full commitment.',
    '5. GUESS: The change is always worth it in the long run.',
  ].join('\n');
}

const GENERAL_DEFENSE = [
  'Re C{id}: INFERENCE: nothing in the question points to a failure of the current approach, and a change made without one is a cost without a measured benefit.',
  'Re C{id}: INFERENCE: I keep the claim, but only a measurement under real load can settle it; neither of us has one.',
];

interface OpenChallenge {
  id: string;
  type: string;
  point: string;
  answeredBefore: boolean;
}

/** The lines under a heading line of the prompt, up to the next blank line. */
function section(prompt: string, heading: RegExp): string {
  const start = heading.exec(prompt);
  if (!start) return '';
  const rest = prompt.slice(start.index + start[0].length);
  const end = rest.indexOf('\n\n');
  return end === -1 ? rest : rest.slice(0, end);
}

/** The open challenges a prompt lists: `C1 (SKEPTICAL) on P1.2: ...`, with the point quoted and any `orchestrator:` line. */
function openChallenges(prompt: string): OpenChallenge[] {
  return section(prompt, /^Open challenges \(answer each by id\):\n/m)
    .split(/^(?=C\d+ \()/m)
    .map((block): OpenChallenge | undefined => {
      const head = /^(C\d+) \((SKEPTICAL|REJECT)\) on (P\d+\.\d+)/.exec(block);
      if (!head) return undefined;
      // The challenged point is quoted under the head line ("P1.2 as it stands:"): its words are in the block.
      return { id: head[1]!, type: head[2]!, point: block.slice(head[0].length), answeredBefore: /^\s+orchestrator: /m.test(block) };
    })
    .filter((c): c is OpenChallenge => c !== undefined);
}

/** Quick mode: `P1.2 (SKEPTICAL): flaw` objections, answered by point id. */
function objections(prompt: string): string[] {
  return [...section(prompt, /^Objections \(answer each by point id[^\n]*\n/m).matchAll(/^(P\d+\.\d+) \(/gm)].map((m) => m[1]!);
}

function defense(challenge: OpenChallenge, cacheTopic: boolean): string {
  const id = challenge.id.slice(1);
  if (challenge.type === 'REJECT') return `I concede ${challenge.id}: "always" does not hold; a read from memory is fast in either store.`;
  const tailored = cacheTopic ? CACHE_DEFENSES.find(([topic]) => topic.test(challenge.point)) : undefined;
  const [first, second] = tailored ? [tailored[1], tailored[2]] : GENERAL_DEFENSE;
  return (challenge.answeredBefore ? second! : first!).replace('{id}', id);
}

export function consulteeReply(prompt: string): string {
  const question = /=== USER QUESTION ===\n([\s\S]*?)\n=== END USER QUESTION ===/.exec(prompt)?.[1] ?? '';
  const cacheTopic = /\bcache\b|redis/i.test(question);
  const challenges = openChallenges(prompt);
  if (challenges.length) return challenges.map((c) => defense(c, cacheTopic)).join('\n\n');
  const objected = objections(prompt);
  if (objected.length) return objected.map((id) => `Re ${id}: INFERENCE: the claim stands for the case described; a measurement under real load would show otherwise if it is wrong.`).join('\n\n');
  if (/Stress test: give the single strongest objection/.test(prompt)) {
    return '1. INFERENCE: The strongest objection to what was agreed: it assumes today\'s load, and a sudden spike would change the answer. Classified mitigable: a load test before the next launch covers it.';
  }
  // The first call asks for the points (a retry of it carries the whole first prompt again).
  if (/^Request: /m.test(prompt)) return cacheTopic ? CACHE_POINTS : generalPoints(question);
  return 'No further points.';
}
