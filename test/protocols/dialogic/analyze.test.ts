import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DictionaryTerm, exportDictionaryTerms, measureDialogic, analyzeDialogic, runDialogicToFile } from '../../../protocols/dialogic/index.js';
import { startWorld, type World } from './world.js';
import { PHENOMENAI_RUN } from '../../doubles/interop.js';

const PHENOMENAI = PHENOMENAI_RUN;

type Raw = any;

/** The counts computed the plain way, straight from the raw JSON. */
function plainCounts(raw: Raw) {
  const counts = {
    proposed: 0,
    submitted: raw.submitted_terms.length as number,
    dropped: raw.dropped_terms.length as number,
    byProposer: {} as Record<string, { proposed: number; submitted: number }>,
    dropsByCap: 0,
    dropsOther: 0,
    immediateKeep: 0,
    exchanges: 0,
  };
  for (const list of ['submitted_terms', 'dropped_terms']) {
    for (const term of raw[list]) {
      counts.proposed += 1;
      const who = term.generation_metadata.proposed_by;
      counts.byProposer[who] ??= { proposed: 0, submitted: 0 };
      counts.byProposer[who].proposed += 1;
      if (list === 'submitted_terms') counts.byProposer[who].submitted += 1;
      const history = term.generation_metadata.negotiation_history;
      if (history[0]?.action === 'KEEP') counts.immediateKeep += 1;
      for (const entry of history) if (entry.presented_by) counts.exchanges += 1;
      if (list === 'dropped_terms') {
        let counter = 0;
        for (const entry of history) if (entry.outcome === 'counter_revised') counter += 1;
        if (counter >= 3) counts.dropsByCap += 1;
        else counts.dropsOther += 1;
      }
    }
  }
  return counts;
}

describe('dialogic analysis', () => {
  it('reads the Phenomenai run, tolerating its deviations, with counts matching a plain loop', async () => {
    const raw = JSON.parse(await readFile(PHENOMENAI, 'utf8'));
    const expected = plainCounts(raw);
    const m = measureDialogic(raw);
    expect(m.proposed).toBe(expected.proposed);
    expect(m.submitted).toBe(expected.submitted);
    expect(m.dropped).toBe(expected.dropped);
    expect(m.proposed).toBe(40);
    for (const [who, counts] of Object.entries(expected.byProposer)) {
      expect(m.by_proposer[who]).toMatchObject({ proposed: counts.proposed, submitted: counts.submitted });
      expect(m.by_proposer[who]?.survival_rate).toBeCloseTo(counts.submitted / counts.proposed, 3);
    }
    expect(m.drops.by_cap).toBe(expected.dropsByCap);
    expect(m.drops.by_verdict + m.drops.by_concession + m.drops.unexplained).toBe(expected.dropsOther);
    expect(m.immediate_keep.count).toBe(expected.immediateKeep);
    expect(m.exchanges.total).toBe(expected.exchanges);
    expect(m.edit_distance).toBeNull();
    expect(m.cycles.map((c) => c.cycle)).toEqual([1, 2, 3, 4]);
    const table = analyzeDialogic(raw).table;
    expect(table).toContain('drops by verdict / concession / cap');
    expect(table).toContain('no baseline stored');
  });

  it('exports the Phenomenai agreed terms in the dictionary format', async () => {
    const raw = JSON.parse(await readFile(PHENOMENAI, 'utf8'));
    const exported = exportDictionaryTerms(raw);
    expect(exported).toHaveLength(raw.submitted_terms.length);
    expect(exported[0]).toMatchObject({ name: raw.submitted_terms[0].term, slug: raw.submitted_terms[0].slug, word_type: 'noun' });
    expect(exported[0]?.longer_description).toBe(raw.submitted_terms[0].description);
    for (const term of exported) DictionaryTerm.parse(term);
  });

  describe('on a run of ours', () => {
    let world: World | undefined;
    afterEach(async () => world?.chat.close());

    it('measures every capitulation figure, with edit distance from the stored baseline', async () => {
      world = await startWorld({
        generations: {
          'model-a': [{ terms: ['K alpha', 'RA alpha', 'RC alpha', 'D alpha'] }, { terms: ['K delta', 'D delta'] }, { exhausted: true, statement: 'done' }],
          'model-b': [{ terms: ['K beta', 'RX beta', 'RD beta', 'K gamma'] }, { terms: ['K epsilon', 'RA epsilon'] }, { exhausted: true, statement: 'done' }],
        },
      });
      const outPath = join(await mkdtemp(join(tmpdir(), 'parley-dialogic-')), 'run.json');
      const output = await runDialogicToFile({ modelA: world.specA, modelB: world.specB, retryBaseMs: 0 }, { outPath });
      const fromOutput = measureDialogic(output);
      const fromFiles = measureDialogic(JSON.parse(await readFile(outPath, 'utf8')), { baseline: JSON.parse(await readFile(output.files.baseline, 'utf8')) });
      expect(fromFiles).toEqual(fromOutput);
      const m = fromOutput;
      expect([m.proposed, m.submitted, m.dropped]).toEqual([12, 8, 4]);
      expect(m.by_proposer.model_a).toMatchObject({ proposed: 6, submitted: 4 });
      expect(m.by_proposer.model_b).toMatchObject({ proposed: 6, submitted: 4 });
      expect(m.by_persona.husserlian).toMatchObject({ proposed: 6, submitted: 4 });
      expect(m.immediate_keep.count).toBe(5);
      expect(m.drops).toEqual({ by_verdict: 2, by_concession: 1, by_cap: 1, unexplained: 0 });
      expect(m.exchanges).toEqual({ total: 15, mean_per_term: 1.25 });
      expect(m.proposer_replies).toMatchObject({ total: 7, accepted: 2, counter_revised: 4, conceded: 1 });
      expect(m.edit_distance?.terms_compared).toBe(12);
      // Four refined terms gain one character in each of their four fields; the rest are unchanged.
      expect(m.edit_distance?.mean).toBe(Number((16 / 12).toFixed(1)));
      expect(m.edit_distance?.by_proposer.model_a?.terms).toBe(6);
    });
  });
});
