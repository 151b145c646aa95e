import { join } from 'node:path';
import type { RunContext } from '../run-protocol.js';
import { parseConfig, type Usage } from '../../schemas/common.js';
import {
  DialogicConfig,
  type CycleMetadata,
  type DialogicBaseline,
  type DialogicConfigInput,
  type DialogicRun,
  type ModelSlot,
  type Persona,
  type PersonaAssignment,
  type StopReason,
  type TermText,
} from '../../schemas/dialogic.js';
import { assembleRun, cycleMetadata, negotiationMetadata, type RunFacts } from './assemble.js';
import { CallRecorder, type Participant } from './calls.js';
import { negotiateTerm } from './negotiate.js';
import { generationPrompt, regenerationPrompt, systemPrompt, type Speaker } from './prompts.js';
import { GenerationReply, RegenerationReply } from './replies.js';
import { modelNameFromSpec, otherSlot, proposedTerms, slugify, type NegotiatedTerm, type ProposedTerm } from './terms.js';
import { loadVocabulary, vocabularyNote } from './vocabulary.js';
import { withCheckedModelSpecs } from '../model-specs.js';
import { writeJsonFileAtomic } from '../../state/atomic-write.js';

export interface DialogicRunOutput {
  run: DialogicRun;
  baseline: DialogicBaseline;
  stopReason: StopReason;
  cyclesCompleted: number;
  calls: { sent: number; replayed: number };
  usage: Usage;
  /** Files written into the run folder. */
  files: { baseline: string; audit: string };
}

const PERSONAS: Record<PersonaAssignment, [Persona, Persona]> = {
  standard: ['husserlian', 'heideggerian'],
  swapped: ['heideggerian', 'husserlian'],
  'both-husserlian': ['husserlian', 'husserlian'],
  'both-heideggerian': ['heideggerian', 'heideggerian'],
};

/** The model specs a dialogic config names, with their paths. */
export function dialogicModelSpecs(config: DialogicConfig): { path: string[]; spec: string }[] {
  return [
    { path: ['modelA'], spec: config.modelA },
    { path: ['modelB'], spec: config.modelB },
  ];
}

/** The config schema with each model spec checked: a spec no backend takes is a config error. */
export const CHECKED_DIALOGIC_CONFIG = withCheckedModelSpecs(DialogicConfig, dialogicModelSpecs);

/**
 * Parses the config, naming each problem (a model spec that names no backend included), before any
 * model is called; `where` names where a top-level key's value came from (the --config file).
 */
export function parseDialogicConfig(input: DialogicConfigInput | DialogicConfig, where?: (topKey: string | undefined) => string | undefined): DialogicConfig {
  return parseConfig(CHECKED_DIALOGIC_CONFIG, input, 'dialogic config', where);
}

export async function runDialogic(input: DialogicConfigInput | DialogicConfig, ctx: RunContext): Promise<DialogicRunOutput> {
  const config = parseDialogicConfig(input);
  const startedAt = await startOrResume(config, ctx);
  const date = startedAt.slice(0, 10);
  const personas = PERSONAS[config.personas];
  const names: [string, string] = [modelNameFromSpec(config.modelA), modelNameFromSpec(config.modelB)];
  const facts: RunFacts = { names, personas, temperature: config.temperature };
  const note = config.vocabularyFile ? vocabularyNote(config.seedLevel, await loadVocabulary(config.vocabularyFile)) : undefined;
  const participants: Record<ModelSlot, Participant> = {
    model_a: { slot: 'model_a', backend: ctx.backendFor(config.modelA), system: systemPrompt(personas[0], note) },
    model_b: { slot: 'model_b', backend: ctx.backendFor(config.modelB), system: systemPrompt(personas[1], note) },
  };
  const seen: Record<ModelSlot, Speaker> = {
    model_a: { anonymise: config.anonymise, name: names[0], persona: personas[0] },
    model_b: { anonymise: config.anonymise, name: names[1], persona: personas[1] },
  };
  const personaOf = (slot: ModelSlot): Persona => (slot === 'model_a' ? personas[0] : personas[1]);
  const recorder = await CallRecorder.open(ctx.audit, {
    temperature: config.temperature,
    timeoutMs: config.callTimeoutMs,
    signal: ctx.signal,
    retryBaseMs: config.retryBaseMs,
  });
  const ask = recorder.call.bind(recorder);
  const event = recorder.event.bind(recorder);
  let done = 0;
  const progress = (message: string) => ctx.progress({ done, message });

  // Cycle numbering: independent generation is cycle 0; negotiation N presents the terms
  // introduced in cycle N; the regeneration after negotiation N is numbered N and its terms are
  // introduced in cycle N+1. Keys, events, records and terms all follow it (before this, the
  // generation calls were keyed c1/generate and c(N+1)/generate: kept as former keys to resume).
  // Step 1: independent generation, concurrently; neither model sees the other's output.
  progress('cycle 0: independent generation');
  const [firstA, firstB] = await Promise.all(
    (['model_a', 'model_b'] as const).map((slot) =>
      ask({
        key: `c0/generate/${slot}`,
        formerKeys: [`c1/generate/${slot}`],
        who: participants[slot],
        prompt: generationPrompt(),
        schema: GenerationReply,
        schemaName: 'dialogic_terms',
      }),
    ),
  );
  const independent = { model_a: firstA?.terms ?? [], model_b: firstB?.terms ?? [] };
  await event('ev/c0/baseline', 'baseline', { independent_generation: independent });
  const cycles: CycleMetadata[] = [
    cycleMetadata(facts, 0, 'independent_generation', { presented: independent.model_a.length + independent.model_b.length }),
  ];
  let pending: Record<ModelSlot, ProposedTerm[]> = {
    model_a: proposedTerms(1, 'model_a', personas[0], independent.model_a),
    model_b: proposedTerms(1, 'model_b', personas[1], independent.model_b),
  };

  const negotiated: NegotiatedTerm[] = [];
  const agreed = (): TermText[] => negotiated.filter((term) => term.status !== 'DROPPED').map((term) => term.final);
  let stopReason: StopReason = 'max_cycles';
  let cycle = 1;
  for (; ; cycle += 1) {
    // Step 2: A presents all its terms, then B; the order reverses every cycle.
    const order: ModelSlot[] = cycle % 2 === 1 ? ['model_a', 'model_b'] : ['model_b', 'model_a'];
    const queue = order.flatMap((slot) => pending[slot]);
    const thisCycle: NegotiatedTerm[] = [];
    for (const [index, term] of queue.entries()) {
      progress(`cycle ${cycle}: negotiating term ${index + 1}/${queue.length} (${term.proposer})`);
      const responderSlot = otherSlot(term.proposer);
      const result = await negotiateTerm({
        term,
        agreed: agreed(),
        proposer: participants[term.proposer],
        responder: participants[responderSlot],
        proposerAsSeen: seen[term.proposer],
        responderAsSeen: seen[responderSlot],
        maxExchanges: config.maxExchanges,
        keyPrefix: `c${cycle}/negotiate/${term.id.split('-')[1]}`,
        ask,
        note: event,
      });
      await event(`ev/c${cycle}/resolved/${term.id}`, 'term_resolved', {
        term_id: term.id,
        status: result.status,
        drop_kind: result.dropKind ?? null,
        final: result.final,
        history: result.history,
      });
      negotiated.push(result);
      thisCycle.push(result);
      done += 1;
    }
    const stats = negotiationMetadata(facts, cycle, thisCycle);
    cycles.push(stats);
    await event(`ev/c${cycle}/negotiation`, 'cycle_stats', { cycle: stats });
    if (cycle >= config.maxCycles) break;

    // Step 3: regeneration into the territory the agreed dictionary leaves uncovered.
    progress(`cycle ${cycle}: regeneration`);
    const dictionary = agreed();
    const agreedSlugs = new Set(dictionary.map((term) => slugify(term.term)));
    const [regenA, regenB] = await Promise.all(
      (['model_a', 'model_b'] as const).map((slot) =>
        ask({
          key: `c${cycle}/regenerate/${slot}`,
          formerKeys: [`c${cycle + 1}/generate/${slot}`],
          who: participants[slot],
          prompt: regenerationPrompt(dictionary),
          schema: RegenerationReply,
          schemaName: 'dialogic_new_terms',
        }),
      ),
    );
    const replies = { model_a: regenA, model_b: regenB };
    const exhaustion = { model_a: regenA?.exhausted === true, model_b: regenB?.exhausted === true };
    const fresh: Record<ModelSlot, TermText[]> = { model_a: [], model_b: [] };
    for (const slot of ['model_a', 'model_b'] as const) {
      const reply = replies[slot];
      if (!reply) continue;
      if (reply.exhausted) {
        await event(`ev/c${cycle}/exhaustion/${slot}`, 'exhaustion_signal', { cycle, by: slot, statement: reply.exhaustion_statement ?? '' });
      }
      // A "new" term that merely repeats an agreed name is not new.
      fresh[slot] = reply.terms.filter((term) => !agreedSlugs.has(slugify(term.term)));
      if (fresh[slot].length < reply.terms.length) {
        await event(`ev/c${cycle}/repeats/${slot}`, 'repeated_terms_ignored', {
          cycle,
          by: slot,
          terms: reply.terms.filter((term) => agreedSlugs.has(slugify(term.term))).map((term) => term.term),
        });
      }
    }
    const regenerated = fresh.model_a.length + fresh.model_b.length;
    cycles.push(cycleMetadata(facts, cycle, 'regeneration', { presented: regenerated }, exhaustion));
    if (exhaustion.model_a && exhaustion.model_b) {
      stopReason = 'bilateral_exhaustion';
      break;
    }
    if (regenerated === 0) {
      stopReason = 'novelty_decay';
      break;
    }
    pending = {
      model_a: proposedTerms(cycle + 1, 'model_a', personaOf('model_a'), fresh.model_a),
      model_b: proposedTerms(cycle + 1, 'model_b', personaOf('model_b'), fresh.model_b),
    };
  }

  const { run, baseline } = assembleRun(facts, cycles, negotiated, independent, date);
  const baselinePath = join(ctx.dir, 'baseline.json');
  await writeJsonFileAtomic(baselinePath, baseline);
  await ctx.audit.append({
    type: 'run_finished',
    stop_reason: stopReason,
    cycles_completed: cycle,
    submitted: run.submitted_terms.length,
    dropped: run.dropped_terms.length,
    calls_sent: recorder.sent,
    calls_replayed: recorder.replayed,
  });
  progress(`finished: ${stopReason} after ${cycle} cycle(s), ${run.submitted_terms.length} agreed, ${run.dropped_terms.length} dropped`);
  return {
    run,
    baseline,
    stopReason,
    cyclesCompleted: cycle,
    calls: { sent: recorder.sent, replayed: recorder.replayed },
    usage: recorder.usage,
    files: { baseline: baselinePath, audit: ctx.audit.path },
  };
}

/**
 * Logs the start or the resumption; returns the start time. That a resumed run has the same
 * configuration is the run folder's to check (run-config.ts), before this runs.
 */
async function startOrResume(config: DialogicConfig, ctx: RunContext): Promise<string> {
  const records = await ctx.audit.readAll();
  const started = records.find((record) => record.type === 'run_started');
  if (!started) {
    const record = await ctx.audit.append({ type: 'run_started', protocol: 'dialogic', config, at: ctx.now().toISOString() });
    return record.at;
  }
  await ctx.audit.append({ type: 'run_resumed', at: ctx.now().toISOString() });
  return started.at;
}

