import { z } from 'zod';
import { CAP_DROP_MARK } from './terms.js';

/**
 * A tolerant reader of dialogic run files: ours, or another implementation's. Known deviations
 * it accepts (seen in the Phenomenai run of 2026-04-07): `action` spelled `REFINED` / `DROPPED`,
 * an extra `round` field, `proposed_revision` holding JSON text, a closing drop entry without
 * `presented_by` / `response_by`, no stored baseline, any extra field anywhere.
 */

const LooseEntry = z.looseObject({
  cycle: z.number().optional(),
  presented_by: z.string().optional(),
  response_by: z.string().optional(),
  action: z.string().optional(),
  reason: z.string().optional(),
  outcome: z.string().optional(),
});

const LooseTerm = z.looseObject({
  term: z.string(),
  definition: z.string().default(''),
  description: z.string().default(''),
  example: z.string().default(''),
  generation_metadata: z.looseObject({
    cycle_introduced: z.number().optional(),
    proposed_by: z.string().default('unknown'),
    persona: z.string().default('unknown'),
    status: z.string().default(''),
    negotiation_history: z.array(LooseEntry).default([]),
  }),
});
export type LooseTerm = z.infer<typeof LooseTerm>;

const LooseRun = z.looseObject({
  protocol: z.string().optional(),
  model_a: z.looseObject({ name: z.string().default('model_a'), persona: z.string().default('unknown') }).optional(),
  model_b: z.looseObject({ name: z.string().default('model_b'), persona: z.string().default('unknown') }).optional(),
  temperature: z.number().optional(),
  cycles: z.array(z.looseObject({ cycle_number: z.number(), phase: z.string() })).default([]),
  submitted_terms: z.array(LooseTerm).default([]),
  dropped_terms: z.array(LooseTerm).default([]),
});
export type LooseRun = z.infer<typeof LooseRun>;

const LooseBaseline = z.looseObject({
  proposals: z.array(
    z.looseObject({
      proposed_by: z.string(),
      original: z.looseObject({ term: z.string(), definition: z.string(), description: z.string(), example: z.string() }),
      final_list: z.enum(['submitted_terms', 'dropped_terms']).optional(),
      final_index: z.number().optional(),
    }),
  ),
});
export type LooseBaseline = z.infer<typeof LooseBaseline>;

/** Accepts a run file, or an object holding one under `run` (and maybe a `baseline`). */
export function readRun(input: unknown, baselineInput?: unknown): { run: LooseRun; baseline?: LooseBaseline } {
  const holder = input && typeof input === 'object' && 'run' in input ? (input as { run: unknown; baseline?: unknown }) : undefined;
  const candidate = holder ? holder.run : input;
  // Every field has a default: without this check any JSON object (a package.json) would read as an empty run.
  if (!looksLikeRun(candidate)) throw new Error('not a dialogic run file: it has neither submitted_terms nor dropped_terms');
  const parsed = LooseRun.safeParse(candidate);
  if (!parsed.success) {
    throw new Error(`not a dialogic run file: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trim());
  }
  const baselineSource = baselineInput ?? holder?.baseline;
  const baseline = baselineSource === undefined ? undefined : LooseBaseline.safeParse(baselineSource);
  return { run: parsed.data, ...(baseline?.success && { baseline: baseline.data }) };
}

function looksLikeRun(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const run = value as Record<string, unknown>;
  return Array.isArray(run.submitted_terms) || Array.isArray(run.dropped_terms) || run.protocol === 'minimal-seed-dialogic';
}

export type Action = 'KEEP' | 'REFINE' | 'DROP' | 'OTHER';

export function normaliseAction(action: string | undefined): Action {
  const upper = (action ?? '').trim().toUpperCase();
  if (upper === 'KEEP' || upper === 'KEPT') return 'KEEP';
  if (upper === 'REFINE' || upper === 'REFINED') return 'REFINE';
  if (upper === 'DROP' || upper === 'DROPPED') return 'DROP';
  return 'OTHER';
}

export interface Exchange {
  action: Action;
  outcome: string;
}

/**
 * The real exchanges of a term's history, without a closing "dropped by the cap" marker (older
 * files of ours add one after `cap` counter-revisions; another implementation's may lack the
 * speaker fields). An exchange that ends the term by the cap (its reason opens with
 * CAP_DROP_MARK) reads as counter_revised: that is what the proposer answered.
 */
export function realExchanges(history: LooseTerm['generation_metadata']['negotiation_history'], cap: number): Exchange[] {
  const exchanges: Exchange[] = [];
  let counterRevised = 0;
  for (const entry of history) {
    const action = normaliseAction(entry.action);
    const outcome = (entry.outcome ?? '').trim().toLowerCase();
    const previous = exchanges.at(-1);
    const closesCap = action === 'DROP' && previous?.outcome === 'counter_revised' && counterRevised >= cap;
    const speakerless = entry.presented_by === undefined && entry.response_by === undefined && action === 'DROP';
    if (closesCap || speakerless) continue;
    const cappedHere = action === 'REFINE' && outcome === 'dropped' && (entry.reason ?? '').startsWith(CAP_DROP_MARK);
    const read = cappedHere ? 'counter_revised' : outcome;
    if (read === 'counter_revised') counterRevised += 1;
    exchanges.push({ action, outcome: read });
  }
  return exchanges;
}
