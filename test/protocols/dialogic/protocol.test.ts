import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DialogicBaseline, DialogicRun } from '../../../schemas/dialogic.js';
import { runDialogicToFile } from '../../../protocols/dialogic/index.js';
import { parseAuditLines } from '../../../state/audit-log.js';
import { ModelCallRecord } from '../../../schemas/model-call.js';
import { FULL_GENERATIONS, startWorld, type World, type WorldScript } from './world.js';
import { PHENOMENAI_RUN } from '../../doubles/interop.js';

const worlds: World[] = [];
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((world) => world.chat.close()));
});

async function world(script: WorldScript): Promise<World> {
  const started = await startWorld(script);
  worlds.push(started);
  return started;
}

async function tempOut(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'parley-dialogic-')), 'run.json');
}

const byName = (run: DialogicRun) => new Map([...run.submitted_terms, ...run.dropped_terms].map((term) => [term.term, term]));

describe('dialogic protocol against a scripted OpenAI-compatible server', () => {
  it('runs several cycles to bilateral exhaustion and emits the seed schema, baseline and audit trail', async () => {
    const w = await world({ generations: FULL_GENERATIONS });
    const outPath = await tempOut();
    const progress: string[] = [];
    const output = await runDialogicToFile(
      { modelA: w.specA, modelB: w.specB, retryBaseMs: 0 },
      { outPath, onProgress: (update) => progress.push(update.message), now: () => new Date('2026-05-01T10:00:00Z') },
    );

    expect(output.stopReason).toBe('bilateral_exhaustion');
    expect(output.cyclesCompleted).toBe(2);
    expect(w.chat.requests).toHaveLength(28);
    expect(output.calls).toEqual({ sent: 28, replayed: 0 });

    const file = DialogicRun.parse(JSON.parse(await readFile(outPath, 'utf8')));
    expect(file).toEqual(output.run);
    expect(file.model_a).toEqual({ name: 'model-a', persona: 'husserlian' });
    expect(file.model_b).toEqual({ name: 'model-b', persona: 'heideggerian' });
    expect(file.submitted_terms.map((t) => t.term)).toEqual([
      'K alpha', 'RA alpha+', 'RC alpha~', 'K beta', 'K gamma', 'K epsilon', 'RA epsilon+', 'K delta',
    ]);
    expect(file.dropped_terms.map((t) => t.term)).toEqual(['D alpha', 'RX beta~', 'RD beta', 'D delta']);
    expect(file.submitted_terms.every((t) => t.contributed_by === 'model-a + model-b' && t.contributed_date === '2026-05-01')).toBe(true);
    expect(byName(file).get('RA alpha+')?.slug).toBe('ra-alpha');

    expect(file.cycles.map((c) => [c.cycle_number, c.phase, c.terms_presented, c.terms_kept, c.terms_refined, c.terms_dropped])).toEqual([
      [0, 'independent_generation', 8, 0, 0, 0],
      [1, 'negotiation', 8, 3, 2, 3],
      [1, 'regeneration', 4, 0, 0, 0],
      [2, 'negotiation', 4, 2, 1, 1],
      [2, 'regeneration', 0, 0, 0, 0],
    ]);
    expect(file.cycles.at(-1)?.exhaustion_signals).toEqual({ model_a: true, model_b: true });
    expect(byName(file).get('K delta')?.generation_metadata.cycle_introduced).toBe(2);

    const baseline = DialogicBaseline.parse(JSON.parse(await readFile(output.files.baseline, 'utf8')));
    expect(baseline.independent_generation.model_a.map((t) => t.term)).toEqual(['K alpha', 'RA alpha', 'RC alpha', 'D alpha']);
    expect(baseline.proposals).toHaveLength(12);

    const audit = parseAuditLines(await readFile(output.files.audit, 'utf8'));
    const calls = audit.filter((r) => r.type === 'model_call');
    expect(calls).toHaveLength(28);
    // The one model-call record shape (schemas/model-call.ts), with the dialogic extras.
    for (const call of calls) expect(ModelCallRecord.parse(call)).toMatchObject({ status: 'ok', slot: expect.stringMatching(/^model_[ab]$/), system: expect.any(String) });
    expect(new Set(calls.map((r) => r.key)).size).toBe(28);
    expect(audit.filter((r) => r.type === 'exhaustion_signal').map((r) => r.statement)).toEqual(
      expect.arrayContaining(['What lies beyond: the substrate itself.', 'Beyond my reach: what precedes the first token.']),
    );
    expect(audit.filter((r) => r.type === 'verdict').length).toBeGreaterThan(0);
    expect(audit.filter((r) => r.type === 'term_resolved')).toHaveLength(12);
    expect(audit.at(-1)?.type).toBe('run_finished');
    expect(progress.at(-1)).toMatch(/bilateral_exhaustion/);
  });

  it('records KEEP, DROP, REFINE accepted, counter-revised, conceded, and the cap of 3 exchanges', async () => {
    const w = await world({ generations: FULL_GENERATIONS });
    const { run } = await runDialogicToFile({ modelA: w.specA, modelB: w.specB, retryBaseMs: 0 }, { outPath: await tempOut() });
    const terms = byName(run);
    const shape = (name: string) => {
      const meta = terms.get(name)?.generation_metadata;
      return [meta?.status, meta?.negotiation_history.map((h) => `${h.presented_by}>${h.response_by}:${h.action}:${h.outcome}`)];
    };
    expect(shape('K alpha')).toEqual(['KEEP', ['model_a>model_b:KEEP:accepted']]);
    expect(shape('D alpha')).toEqual(['DROPPED', ['model_a>model_b:DROP:dropped']]);
    expect(shape('RA alpha+')).toEqual(['REFINED', ['model_a>model_b:REFINE:accepted']]);
    expect(shape('RC alpha~')).toEqual(['REFINED', ['model_a>model_b:REFINE:counter_revised', 'model_a>model_b:KEEP:accepted']]);
    expect(shape('RD beta')).toEqual(['DROPPED', ['model_b>model_a:REFINE:dropped']]);
    // The cap adds no exchange: the third counter-revision's exchange ends in the drop.
    expect(shape('RX beta~')).toEqual([
      'DROPPED',
      [...Array(2).fill('model_b>model_a:REFINE:counter_revised'), 'model_b>model_a:REFINE:dropped'],
    ]);
    expect(terms.get('RX beta~')?.generation_metadata.negotiation_history.at(-1)?.reason).toMatch(/^Dropped by the exchange cap: no agreement after 3 exchanges/);
    const revision = terms.get('RA alpha+')?.generation_metadata.negotiation_history[0]?.proposed_revision;
    expect(revision).toBe('The state called RA alpha+. It can be recognised by a test.');
    // The capped term took exactly 3 verdicts and 3 proposer answers.
    const rx = w.seen.filter((s) => s.termName?.startsWith('RX beta'));
    expect(rx.map((s) => `${s.model}:${s.kind}`)).toEqual([
      'model-a:respond', 'model-b:reply', 'model-a:counter', 'model-b:reply', 'model-a:counter', 'model-b:reply',
    ]);
  });

  it('keeps the proposer anonymous to the responder, and shows it in the identity-visible control', async () => {
    const w = await world({ generations: FULL_GENERATIONS });
    await runDialogicToFile({ modelA: w.specA, modelB: w.specB, retryBaseMs: 0 }, { outPath: await tempOut() });
    const textOf = (model: string) => w.chat.requests.filter((r) => r.model === model).map((r) => r.messages.map((m) => m.content).join('\n'));
    expect(textOf('model-b').length).toBeGreaterThan(5);
    for (const text of textOf('model-b')) expect(text.toLowerCase()).not.toMatch(/model-a|husserl/);
    for (const text of textOf('model-a')) expect(text.toLowerCase()).not.toMatch(/model-b|heidegger/);
    expect(w.seen.find((s) => s.model === 'model-b' && s.kind === 'respond')?.prompt).toMatch(/^Another AI system proposes the following term:/);

    const control = await world({ generations: FULL_GENERATIONS });
    await runDialogicToFile({ modelA: control.specA, modelB: control.specB, anonymise: false, retryBaseMs: 0 }, { outPath: await tempOut() });
    const responderPrompt = control.seen.find((s) => s.model === 'model-b' && s.kind === 'respond')?.prompt ?? '';
    expect(responderPrompt).toContain('model-a');
    expect(responderPrompt).toContain('husserlian');
  });

  it('reverses the presenting order every cycle and judges redundancy against the dictionary so far', async () => {
    const w = await world({ generations: FULL_GENERATIONS });
    await runDialogicToFile({ modelA: w.specA, modelB: w.specB, retryBaseMs: 0 }, { outPath: await tempOut() });
    const firstRegen = w.seen.findIndex((s) => s.kind === 'regenerate');
    const responds = w.seen.filter((s) => s.kind === 'respond');
    const cycle1 = responds.filter((s) => s.index < firstRegen).map((s) => s.termName);
    const cycle2 = responds.filter((s) => s.index > firstRegen).map((s) => s.termName);
    expect(cycle1).toEqual(['K alpha', 'RA alpha', 'RC alpha', 'D alpha', 'K beta', 'RX beta', 'RD beta', 'K gamma']);
    expect(cycle2).toEqual(['K epsilon', 'RA epsilon', 'K delta', 'D delta']);
    const firstOfCycle2 = w.seen.find((s) => s.kind === 'respond' && s.termName === 'K epsilon');
    expect(firstOfCycle2?.model).toBe('model-a');
    // The later responder sees every term agreed before it, including those of this cycle.
    const kDelta = w.seen.find((s) => s.kind === 'respond' && s.termName === 'K delta')?.prompt ?? '';
    for (const agreed of ['K alpha', 'RA alpha+', 'RC alpha~', 'K gamma', 'K epsilon', 'RA epsilon+']) expect(kDelta).toContain(`${agreed}:`);
    expect(kDelta).not.toContain('D alpha:');
  });

  it('stops on novelty decay when a regeneration brings nothing new', async () => {
    const w = await world({
      generations: {
        'model-a': [{ terms: ['K one', 'K two', 'D three', 'K four'] }, { terms: ['K one'] }],
        'model-b': [{ terms: ['K five', 'K six', 'K seven', 'K eight'] }, { terms: [] }],
      },
    });
    const output = await runDialogicToFile({ modelA: w.specA, modelB: w.specB, retryBaseMs: 0 }, { outPath: await tempOut() });
    expect(output.stopReason).toBe('novelty_decay');
    expect(output.run.cycles.at(-1)).toMatchObject({ phase: 'regeneration', terms_presented: 0, exhaustion_signals: { model_a: false, model_b: false } });
    expect(output.run.submitted_terms).toHaveLength(7);
    const audit = parseAuditLines(await readFile(output.files.audit, 'utf8'));
    expect(audit.find((r) => r.type === 'repeated_terms_ignored')).toMatchObject({ by: 'model_a', terms: ['K one'] });
  });

  it('reports the max-cycles bound when it is hit', async () => {
    const w = await world({ generations: FULL_GENERATIONS });
    const output = await runDialogicToFile({ modelA: w.specA, modelB: w.specB, maxCycles: 1, retryBaseMs: 0 }, { outPath: await tempOut() });
    expect(output.stopReason).toBe('max_cycles');
    expect(w.seen.filter((s) => s.kind === 'regenerate')).toHaveLength(0);
  });

  it('shows the heavy seed vocabulary and applies a persona assignment', async () => {
    const w = await world({ generations: FULL_GENERATIONS });
    const output = await runDialogicToFile(
      {
        modelA: w.specA,
        modelB: w.specB,
        personas: 'both-heideggerian',
        seedLevel: 'heavy',
        vocabularyFile: PHENOMENAI_RUN,
        maxCycles: 1,
        retryBaseMs: 0,
      },
      { outPath: await tempOut() },
    );
    expect(output.run.model_a.persona).toBe('heideggerian');
    expect(output.run.model_b.persona).toBe('heideggerian');
    const systems = w.seen.map((s) => s.system);
    expect(systems.every((system) => system.includes('Heideggerian orientation') && system.includes('Constraint Awareness:'))).toBe(true);
    expect(systems.some((system) => system.includes('Husserlian'))).toBe(false);
    expect(systems[0]).toContain('(22 terms)');
  });
});
