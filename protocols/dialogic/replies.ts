import { z } from 'zod';

/**
 * The JSON each model call must return; one repair retry is made when a reply does not fit.
 * Their JSON Schemas must pass OpenAI's strict structured outputs (codex --output-schema): every
 * property required (absent values are null; a model that omits one gets it filled in) and
 * no string-length keywords (non-emptiness is checked by refinements instead).
 */

/** Fills a value the model left out, so the JSON Schema needs no `default` keyword. */
const orElse = <T extends z.ZodType>(fallback: unknown, schema: T) => z.preprocess((value) => value ?? fallback, schema);
const text = () => z.string().trim().refine((value) => value.length > 0, 'must not be empty');

export const ReplyTerm = z.object({
  term: text(),
  definition: text(),
  description: text(),
  example: text(),
  tagline: orElse('', z.string().trim()),
});
export type ReplyTerm = z.infer<typeof ReplyTerm>;

const upper = (value: unknown) => (typeof value === 'string' ? value.trim().toUpperCase() : value);
const lower = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase().replace(/[\s-]+/g, '_') : value);

export const GenerationReply = z.object({
  terms: z.array(ReplyTerm).min(4, 'generate at least 4 terms').max(8, 'generate at most 8 terms'),
});
export type GenerationReply = z.infer<typeof GenerationReply>;

export const RegenerationReply = z
  .object({
    exhausted: z.boolean(),
    exhaustion_statement: orElse(null, z.string().nullable()),
    terms: z.array(ReplyTerm).max(4, 'generate at most 4 new terms'),
  })
  .superRefine((reply, ctx) => {
    if (reply.exhausted && !reply.exhaustion_statement?.trim()) {
      ctx.addIssue({ code: 'custom', path: ['exhaustion_statement'], message: 'when exhausted, describe what lies beyond your reflective reach' });
    }
  });
export type RegenerationReply = z.infer<typeof RegenerationReply>;

export const VerdictReply = z
  .object({
    verdict: z.preprocess(upper, z.enum(['KEEP', 'REFINE', 'DROP'])),
    reason: text(),
    revision: orElse(null, ReplyTerm.nullable()),
  })
  .superRefine((reply, ctx) => {
    if (reply.verdict === 'REFINE' && !reply.revision) {
      ctx.addIssue({ code: 'custom', path: ['revision'], message: 'REFINE needs the revised term in "revision"' });
    }
  });
export type VerdictReply = z.infer<typeof VerdictReply>;

export const ProposerReply = z
  .object({
    decision: z.preprocess(lower, z.enum(['accept', 'counter_revise', 'concede'])),
    reason: text(),
    counter_revision: orElse(null, ReplyTerm.nullable()),
  })
  .superRefine((reply, ctx) => {
    if (reply.decision === 'counter_revise' && !reply.counter_revision) {
      ctx.addIssue({ code: 'custom', path: ['counter_revision'], message: 'counter_revise needs your revised term in "counter_revision"' });
    }
  });
export type ProposerReply = z.infer<typeof ProposerReply>;
