// Decision search over a folder of 1,000 records. `decisions.search.*` is a question asked of the built
// index; `decisions.readIndexSearch.*` is what `parley decisions search` and a delib_start after the folder
// changed pay: read and parse the folder, index it, then ask; `decisions.unchangedFolderSearch.*` is a
// delib_start's search while the folder is unchanged (the server keeps the index). CPU time is given
// beside wall time, with the load average.
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexDecisions, openDecisionFolder, searchDecisions } from '../protocols/decisions/index.js';
import { FIXTURE_FOLDER } from '../test/protocols/decisions/fixture.js';
import { median, percentile } from './stats.js';

const RECORDS = 1000;
const QUESTIONS = [
  'Should we replace Kafka with a managed message queue for our background jobs and domain events?',
  'How should the new mobile app log users in: OpenID Connect or long-lived API keys?',
  'Should sessions move back from cookies to a server-side store like Redis?',
  'How do we version the breaking changes in the public REST API for v3?',
  "How should each tenant's data be kept separate in the database?",
  'What colour should we paint the office kitchen?',
];

/** A deterministic word generator: records that differ as a real team's do, in their own nouns. */
function words(seed: number, count: number): string {
  let state = seed * 2654435761 >>> 0;
  const syllables = ['ka', 'lo', 'mer', 'tin', 'vas', 'qui', 'dor', 'pel', 'sun', 'ra', 'bex', 'no'];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out.push(syllables[state % 12]! + syllables[(state >>> 8) % 12]! + syllables[(state >>> 16) % 12]!);
  }
  return out.join(' ');
}

/** 1,000 records: the 35 fixture records, renumbered, each with its own component names woven into its context. */
async function writeFolder(dir: string): Promise<void> {
  const templates = (await readdir(FIXTURE_FOLDER)).filter((f) => /^\d{4}-/.test(f));
  const texts = await Promise.all(templates.map((f) => readFile(join(FIXTURE_FOLDER, f), 'utf8')));
  await mkdir(dir, { recursive: true });
  for (let n = 1; n <= RECORDS; n++) {
    const i = (n - 1) % texts.length;
    const text = texts[i]!.replace(/\n## /, `\nThis concerns the ${words(n, 3)} component (${words(n + 7, 12)}).\n\n## `);
    await writeFile(join(dir, `${String(n).padStart(4, '0')}-${templates[i]!.slice(5)}`), text);
  }
}

/** Wall time and this process's CPU time (user + system) of one call, in ms: on a shared machine the CPU time is the steadier. */
async function timed<T>(work: () => Promise<T> | T): Promise<[number, T, number]> {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return [performance.now() - t0, value, (used.user + used.system) / 1000];
}

export async function benchDecisions(): Promise<Record<string, number>> {
  const repo = await mkdtemp(join(tmpdir(), 'parley-bench-decisions-'));
  try {
    await mkdir(join(repo, '.git'));
    await writeFolder(join(repo, 'docs', 'adr'));
    const folder = await openDecisionFolder(repo);
    if (folder?.records.length !== RECORDS) throw new Error(`expected ${RECORDS} records, read ${folder?.records.length}`);
    // Warm up the JIT on both paths before timing.
    for (let i = 0; i < 3; i++) await searchDecisions(repo, QUESTIONS[i % QUESTIONS.length]!);

    const index = indexDecisions(folder.records);
    const searches: number[] = [];
    const searchCpu: number[] = [];
    let hits = 0;
    for (let i = 0; i < 300; i++) {
      const [ms, found, cpu] = await timed(() => index.search(QUESTIONS[i % QUESTIONS.length]!));
      searches.push(ms);
      searchCpu.push(cpu);
      hits += found.hits.length;
    }
    // What `parley decisions search` and a delib_start after the folder changed do: read and parse the
    // folder, index it, search (a fresh repository each time: the server keeps what it indexed).
    const cold: number[] = [];
    const coldCpu: number[] = [];
    for (let i = 0; i < 10; i++) {
      const [ms, , cpu] = await timed(async () => {
        const folder = await openDecisionFolder(repo);
        return indexDecisions(folder!.records).search(QUESTIONS[i % QUESTIONS.length]!);
      });
      cold.push(ms);
      coldCpu.push(cpu);
    }
    // What a delib_start pays while the folder is as the last one left it: its files' signature, then the kept index.
    const unchanged: number[] = [];
    const unchangedCpu: number[] = [];
    for (let i = 0; i < 30; i++) {
      const [ms, , cpu] = await timed(() => searchDecisions(repo, QUESTIONS[i % QUESTIONS.length]!));
      unchanged.push(ms);
      unchangedCpu.push(cpu);
    }
    const round = (ms: number) => Math.round(ms * 100) / 100;
    return {
      'decisions.records': RECORDS,
      'decisions.search.p50Ms': round(median(searches)),
      'decisions.search.p99Ms': round(percentile(searches, 99)),
      'decisions.search.cpuP50Ms': round(median(searchCpu)),
      'decisions.readIndexSearch.p50Ms': round(median(cold)),
      'decisions.readIndexSearch.cpuP50Ms': round(median(coldCpu)),
      'decisions.unchangedFolderSearch.p50Ms': round(median(unchanged)),
      'decisions.unchangedFolderSearch.cpuP50Ms': round(median(unchangedCpu)),
      'decisions.hitsPerQuestion': round(hits / searches.length),
      'decisions.loadAverage': round(loadavg()[0] ?? 0),
    };
  } finally {
    await rm(repo, { recursive: true, force: true });
  }
}
