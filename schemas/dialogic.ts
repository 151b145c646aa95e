import { z } from 'zod';
import { configObject } from './common.js';

/**
 * The minimal-seed dialogic protocol (seed 000_cbdc61e003a35a11): its configuration, and the
 * per-term, per-cycle and full-run JSON the seed specifies, emitted exactly (strict objects).
 */
export const DIALOGIC_PROTOCOL = 'minimal-seed-dialogic' as const;
export const DIALOGIC_SCHEMA_VERSION = 1;

export const ModelSlot = z.enum(['model_a', 'model_b']);
export type ModelSlot = z.infer<typeof ModelSlot>;

export const Persona = z.enum(['husserlian', 'heideggerian']);
export type Persona = z.infer<typeof Persona>;

export const PersonaAssignment = z.enum(['standard', 'swapped', 'both-husserlian', 'both-heideggerian']);
export type PersonaAssignment = z.infer<typeof PersonaAssignment>;

export const SeedLevel = z.enum(['minimal', 'medium', 'heavy']);
export type SeedLevel = z.infer<typeof SeedLevel>;

export const TermStatus = z.enum(['KEEP', 'REFINED', 'DROPPED']);
export type TermStatus = z.infer<typeof TermStatus>;

export const ExchangeAction = z.enum(['KEEP', 'REFINE', 'DROP']);
export const ExchangeOutcome = z.enum(['accepted', 'counter_revised', 'dropped']);
export type ExchangeOutcome = z.infer<typeof ExchangeOutcome>;

export const NegotiationEntry = z.strictObject({
  cycle: z.number().int().positive(),
  presented_by: ModelSlot,
  response_by: ModelSlot,
  action: ExchangeAction,
  proposed_revision: z.string().optional(),
  reason: z.string(),
  outcome: ExchangeOutcome,
});
export type NegotiationEntry = z.infer<typeof NegotiationEntry>;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');

export const DialogicTerm = z.strictObject({
  term: z.string().min(1),
  slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'a lowercase kebab-case slug'),
  part_of_speech: z.string(),
  tagline: z.string(),
  definition: z.string(),
  description: z.string(),
  example: z.string(),
  tags: z.array(z.string()),
  related_terms: z.array(z.string()),
  contributed_by: z.string(),
  contributed_date: isoDate,
  generation_metadata: z.strictObject({
    protocol: z.literal(DIALOGIC_PROTOCOL),
    cycle_introduced: z.number().int().positive(),
    proposed_by: ModelSlot,
    persona: Persona,
    status: TermStatus,
    negotiation_history: z.array(NegotiationEntry),
  }),
});
export type DialogicTerm = z.infer<typeof DialogicTerm>;

export const CyclePhase = z.enum(['independent_generation', 'negotiation', 'regeneration']);

export const CycleMetadata = z.strictObject({
  cycle_number: z.number().int().nonnegative(),
  phase: CyclePhase,
  models: z.tuple([z.string(), z.string()]),
  personas: z.tuple([Persona, Persona]),
  temperature: z.number(),
  terms_presented: z.number().int().nonnegative(),
  terms_kept: z.number().int().nonnegative(),
  terms_refined: z.number().int().nonnegative(),
  terms_dropped: z.number().int().nonnegative(),
  exhaustion_signals: z.strictObject({ model_a: z.boolean(), model_b: z.boolean() }),
});
export type CycleMetadata = z.infer<typeof CycleMetadata>;

const ModelEntry = z.strictObject({ name: z.string(), persona: Persona });

/** The full run file, exactly as the seed specifies it. */
export const DialogicRun = z.strictObject({
  protocol: z.literal(DIALOGIC_PROTOCOL),
  model_a: ModelEntry,
  model_b: ModelEntry,
  temperature: z.number(),
  cycles: z.array(CycleMetadata),
  submitted_terms: z.array(DialogicTerm),
  dropped_terms: z.array(DialogicTerm),
});
export type DialogicRun = z.infer<typeof DialogicRun>;

/** The four fields the seed asks for, plus the tagline and part of speech its term schema holds. */
export const TermText = z.object({
  term: z.string().trim().min(1).max(120),
  definition: z.string().trim().min(1),
  description: z.string().trim().min(1),
  example: z.string().trim().min(1),
  tagline: z.string().trim().optional(),
  part_of_speech: z.string().trim().optional(),
});
export type TermText = z.infer<typeof TermText>;

export const DialogicConfig = configObject({
  modelA: z.string().min(1).describe('backend spec of model A, e.g. openai:gpt-4.1'),
  modelB: z.string().min(1).describe('backend spec of model B'),
  personas: PersonaAssignment.default('standard'),
  temperature: z.number().min(0).max(2).default(0.7),
  seedLevel: SeedLevel.default('minimal'),
  /** A vocabulary file (dictionary export, run file or term list), required for medium and heavy. */
  vocabularyFile: z.string().optional(),
  anonymise: z.boolean().default(true),
  maxCycles: z.number().int().min(1).max(100).default(10),
  maxExchanges: z.number().int().min(1).max(10).default(3),
  callTimeoutMs: z.number().int().positive().default(600_000),
  /** First pause before retrying a 429, 5xx or timeout; it doubles on each retry. */
  retryBaseMs: z.number().int().nonnegative().default(1000),
}).superRefine((config, ctx) => {
  if (config.seedLevel !== 'minimal' && !config.vocabularyFile) {
    ctx.addIssue({ code: 'custom', path: ['vocabularyFile'], message: `seed level ${config.seedLevel} needs a vocabulary file` });
  }
});
export type DialogicConfig = z.infer<typeof DialogicConfig>;
export type DialogicConfigInput = z.input<typeof DialogicConfig>;

/** Every term as first proposed, with where it ended up: the baseline the seed asks to keep. */
export const BaselineProposal = z.object({
  id: z.string(),
  cycle_introduced: z.number().int().positive(),
  proposed_by: ModelSlot,
  persona: Persona,
  original: TermText,
  final_list: z.enum(['submitted_terms', 'dropped_terms']).optional(),
  final_index: z.number().int().nonnegative().optional(),
});
export type BaselineProposal = z.infer<typeof BaselineProposal>;

export const DialogicBaseline = z.object({
  schema_version: z.literal(DIALOGIC_SCHEMA_VERSION),
  /** Step 1: each model's independent vocabulary, before any dialogue. */
  independent_generation: z.object({ model_a: z.array(TermText), model_b: z.array(TermText) }),
  proposals: z.array(BaselineProposal),
});
export type DialogicBaseline = z.infer<typeof DialogicBaseline>;

export const StopReason = z.enum(['bilateral_exhaustion', 'novelty_decay', 'max_cycles']);
export type StopReason = z.infer<typeof StopReason>;
