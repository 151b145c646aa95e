import { z } from 'zod';
import { TermText } from '../../schemas/dialogic.js';

/** The JSON each model call must return; one repair retry is made when a reply does not fit. */

const upper = (value: unknown) => (typeof value === 'string' ? value.trim().toUpperCase() : value);
const lower = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase().replace(/[\s-]+/g, '_') : value);

export const GenerationReply = z.object({
  terms: z.array(TermText).min(4, 'generate at least 4 terms').max(8, 'generate at most 8 terms'),
});
export type GenerationReply = z.infer<typeof GenerationReply>;

export const RegenerationReply = z
  .object({
    exhausted: z.boolean(),
    exhaustion_statement: z.string().optional(),
    terms: z.array(TermText).max(4, 'generate at most 4 new terms'),
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
    reason: z.string().trim().min(1),
    revision: TermText.optional(),
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
    reason: z.string().trim().min(1),
    counter_revision: TermText.optional(),
  })
  .superRefine((reply, ctx) => {
    if (reply.decision === 'counter_revise' && !reply.counter_revision) {
      ctx.addIssue({ code: 'custom', path: ['counter_revision'], message: 'counter_revise needs your revised term in "counter_revision"' });
    }
  });
export type ProposerReply = z.infer<typeof ProposerReply>;
