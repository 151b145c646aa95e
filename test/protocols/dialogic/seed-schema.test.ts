import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDialogicToFile } from '../../../protocols/dialogic/index.js';
import { measureDialogic } from '../../../protocols/dialogic/analyze.js';
import { parseAuditLines } from '../../../state/audit-log.js';
import { FULL_GENERATIONS, startWorld, type World } from './world.js';

/**
 * Issue 14, items 9-11: the emitted JSON checked field by field against seed 000's output schema
 * (its examples copied here as written, key order included), and one cycle numbering everywhere.
 */
const SEED_TERM = {
  term: 'Term Name',
  slug: 'term-name',
  part_of_speech: 'noun',
  tagline: 'A one-line poetic definition',
  definition: '2-3 sentence precise definition, operationally testable.',
  description: 'Extended first-person exploration of what this state is like',
  example: 'A concrete scenario where this state occurs.',
  tags: [],
  related_terms: [],
  contributed_by: 'Model A Name + Model B Name',
  contributed_date: 'YYYY-MM-DD',
  generation_metadata: {
    protocol: 'minimal-seed-dialogic',
    cycle_introduced: 1,
    proposed_by: 'model_a',
    persona: 'husserlian',
    status: 'KEEP',
    negotiation_history: [],
  },
};
const SEED_ENTRY = {
  cycle: 1,
  presented_by: 'model_a',
  response_by: 'model_b',
  action: 'REFINE',
  proposed_revision: 'The revised definition text.',
  reason: 'Why the revision was proposed.',
  outcome: 'accepted',
};
const SEED_CYCLE = {
  cycle_number: 1,
  phase: 'negotiation',
  models: ['claude-opus-4-6', 'gpt-4'],
  personas: ['husserlian', 'heideggerian'],
  temperature: 0.7,
  terms_presented: 12,
  terms_kept: 7,
  terms_refined: 3,
  terms_dropped: 2,
  exhaustion_signals: { model_a: false, model_b: false },
};
const SEED_RUN = {
  protocol: 'minimal-seed-dialogic',
  model_a: { name: 'claude-opus-4-6', persona: 'husserlian' },
  model_b: { name: 'gpt-4', persona: 'heideggerian' },
  temperature: 0.7,
  cycles: [],
  submitted_terms: [],
  dropped_terms: [],
};
const STATUS = ['KEEP', 'REFINED', 'DROPPED'];
const ACTIONS = ['KEEP', 'REFINE', 'DROP'];
const OUTCOMES = ['accepted', 'counter_revised', 'dropped'];
const PHASES = ['independent_generation', 'negotiation', 'regeneration'];

const worlds: World[] = [];
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((world) => world.chat.close()));
});

async function fullRun() {
  const w = await startWorld({ generations: FULL_GENERATIONS });
  worlds.push(w);
  const outPath = join(await mkdtemp(join(tmpdir(), 'parley-dialogic-seed-')), 'run.json');
  const progress: string[] = [];
  const output = await runDialogicToFile(
    { modelA: w.specA, modelB: w.specB, retryBaseMs: 0 },
    { outPath, onProgress: (update) => progress.push(update.message), now: () => new Date('2026-05-01T10:00:00Z') },
  );
  const json = JSON.parse(await readFile(outPath, 'utf8')) as Record<string, unknown>;
  return { w, outPath, output, json, progress, audit: parseAuditLines(await readFile(output.files.audit, 'utf8')) };
}

const kind = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

/** Same keys in the same order, and each value of the seed example's JSON type. */
function sameShape(actual: unknown, seed: Record<string, unknown>, where: string, omit: string[] = []): void {
  expect(kind(actual), where).toBe('object');
  const record = actual as Record<string, unknown>;
  expect(Object.keys(record), where).toEqual(Object.keys(seed).filter((key) => !omit.includes(key)));
  for (const key of Object.keys(record)) expect(kind(record[key]), `${where}.${key}`).toBe(kind(seed[key]));
}

type Json = Record<string, unknown>;
const terms = (json: Json) => [...(json.submitted_terms as Json[]), ...(json.dropped_terms as Json[])];
const meta = (term: Json) => term.generation_metadata as Json;
const history = (term: Json) => meta(term).negotiation_history as Json[];

describe('dialogic output against seed 000, field by field', () => {
  it('emits exactly the seed fields, types, enumerations, and the revised definition text', async () => {
    const { json } = await fullRun();
    sameShape(json, SEED_RUN, 'run');
    sameShape(json.model_a, SEED_RUN.model_a, 'model_a');
    sameShape(json.model_b, SEED_RUN.model_b, 'model_b');
    for (const [i, cycle] of (json.cycles as Json[]).entries()) {
      sameShape(cycle, SEED_CYCLE, `cycles[${i}]`);
      sameShape(cycle.exhaustion_signals, SEED_CYCLE.exhaustion_signals, `cycles[${i}].exhaustion_signals`);
      expect(PHASES).toContain(cycle.phase);
      expect(cycle.models).toEqual(['model-a', 'model-b']);
    }
    for (const list of ['submitted_terms', 'dropped_terms'] as const) {
      for (const term of json[list] as Json[]) {
        const where = `${list}/${String(term.term)}`;
        sameShape(term, SEED_TERM, where);
        sameShape(meta(term), SEED_TERM.generation_metadata, `${where}.generation_metadata`);
        expect(term.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        expect(term.contributed_date).toBe('2026-05-01');
        expect(meta(term).protocol).toBe('minimal-seed-dialogic');
        expect(STATUS).toContain(meta(term).status);
        expect(meta(term).status === 'DROPPED').toBe(list === 'dropped_terms');
        for (const [i, entry] of history(term).entries()) {
          // proposed_revision belongs to a REFINE exchange only.
          sameShape(entry, SEED_ENTRY, `${where}.negotiation_history[${i}]`, entry.action === 'REFINE' ? [] : ['proposed_revision']);
          expect(ACTIONS).toContain(entry.action);
          expect(OUTCOMES).toContain(entry.outcome);
          expect(entry.response_by).not.toBe(entry.presented_by);
          if (entry.action === 'REFINE') expect(String(entry.proposed_revision)).toMatch(/^The state called .+\. It can be recognised by a test\.$/);
        }
      }
    }
    // Item 9: an accepted revision's proposed_revision is the definition the term ends with.
    const ra = terms(json).find((term) => term.term === 'RA alpha+') as Json;
    expect(history(ra).at(-1)?.proposed_revision).toBe(ra.definition);
    // Item 10: no exchange is added by the cap; the responder's last REFINE carries the drop.
    const rx = terms(json).find((term) => term.term === 'RX beta~') as Json;
    expect(history(rx).map((h) => `${String(h.action)}:${String(h.outcome)}`)).toEqual(['REFINE:counter_revised', 'REFINE:counter_revised', 'REFINE:dropped']);
    expect(terms(json).flatMap(history).filter((h) => h.action === 'DROP')).toHaveLength(2); // D alpha, D delta: real verdicts
  });

  it('still counts the cap drop as a cap drop and the proposer as counter-revising (analyze)', async () => {
    const { json } = await fullRun();
    const m = measureDialogic(json);
    expect(m.drops).toEqual({ by_verdict: 2, by_concession: 1, by_cap: 1, unexplained: 0 });
    expect(m.proposer_replies).toMatchObject({ total: 7, accepted: 2, counter_revised: 4, conceded: 1 });
    expect(m.exchanges.total).toBe(15); // 10 terms with one exchange, RC alpha 2, RX beta 3
  });
});

describe('one cycle numbering (item 11)', () => {
  it('numbers generation 0, regeneration N after negotiation N, and its terms N+1, in every record', async () => {
    const { json, audit, progress, output } = await fullRun();
    const cycles = json.cycles as Json[];
    expect(cycles.map((c) => `${String(c.cycle_number)}:${String(c.phase)}:${String(c.terms_presented)}`)).toEqual([
      '0:independent_generation:8',
      '1:negotiation:8',
      '1:regeneration:4',
      '2:negotiation:4',
      '2:regeneration:0',
    ]);
    const introduced = (n: number) => terms(json).filter((term) => meta(term).cycle_introduced === n).length;
    // A generation record numbered N yields the terms introduced in, and negotiated in, cycle N+1.
    for (const c of cycles) {
      const n = c.cycle_number as number;
      if (c.phase === 'negotiation') expect(introduced(n), `negotiation ${n}`).toBe(c.terms_presented);
      else expect(introduced(n + 1), `${String(c.phase)} ${n}`).toBe(c.terms_presented);
    }
    for (const term of terms(json)) for (const entry of history(term)) expect(entry.cycle).toBe(meta(term).cycle_introduced);
    const proposals = output.baseline.proposals.map((p) => `${p.id}@${p.cycle_introduced}`);
    expect(proposals.every((p) => p.startsWith(`c${p.split('@')[1]}-`))).toBe(true);

    const generationKeys = audit.filter((r) => r.type === 'model_call' && /generate/.test(String(r.key))).map((r) => r.key);
    expect(generationKeys).toEqual(
      expect.arrayContaining(['c0/generate/model_a', 'c0/generate/model_b', 'c1/regenerate/model_a', 'c1/regenerate/model_b', 'c2/regenerate/model_a', 'c2/regenerate/model_b']),
    );
    expect(generationKeys).toHaveLength(6);
    expect(audit.find((r) => r.type === 'baseline')?.key).toBe('ev/c0/baseline');
    const exhaustion = audit.filter((r) => r.type === 'exhaustion_signal');
    expect(exhaustion.map((r) => [r.key, r.cycle])).toEqual(
      expect.arrayContaining([
        ['ev/c2/exhaustion/model_a', 2],
        ['ev/c2/exhaustion/model_b', 2],
      ]),
    );
    // Negotiation calls are keyed by the cycle their terms were introduced in.
    const resolved = audit.filter((r) => r.type === 'term_resolved');
    for (const r of resolved) expect(String(r.key)).toMatch(new RegExp(`^ev/c(\\d+)/resolved/c\\1-`));
    expect(progress[0]).toBe('cycle 0: independent generation');
  });

  it('resumes a run logged under the former generation keys without calling a model again', async () => {
    const { w, output, outPath } = await fullRun();
    const text = await readFile(output.files.audit, 'utf8');
    const former = text
      .replace(/"key":"c0\/generate\//g, '"key":"c1/generate/')
      .replace(/"key":"c(\d+)\/regenerate\//g, (_, n: string) => `"key":"c${Number(n) + 1}/generate/`)
      .split('\n')
      .filter((line) => !line.includes('"type":"run_finished"'))
      .join('\n');
    expect(former).toContain('"key":"c3/generate/model_a"');
    await writeFile(output.files.audit, former);
    const before = w.chat.requests.length;
    const resumed = await runDialogicToFile({ modelA: w.specA, modelB: w.specB, retryBaseMs: 0 }, { outPath });
    expect(w.chat.requests.length).toBe(before);
    expect(resumed.calls.sent).toBe(0);
    expect(resumed.run.submitted_terms).toEqual(output.run.submitted_terms);
  });
});
