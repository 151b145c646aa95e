import { z } from 'zod';
import { Usage } from './common.js';

/** The audit record of one model call (protocols/recorded-call.ts writes it; replay and spend read it). */
export const MODEL_CALL = 'model_call';

export const CallAttempt = z.object({
  prompt: z.string(),
  raw: z.string(),
  error: z.string().optional(),
  usage: Usage,
  latencyMs: z.number(),
});
export type CallAttempt = z.infer<typeof CallAttempt>;

export const CallStatus = z.enum(['ok', 'format-failure', 'call-failure']);
export type CallStatus = z.infer<typeof CallStatus>;

/** Optional facts a protocol adds to its calls' records. */
export const CallExtras = z.object({
  slot: z.string().optional(),
  system: z.string().optional(),
});
export type CallExtras = z.infer<typeof CallExtras>;

export const ModelCallRecord = CallExtras.extend({
  type: z.literal(MODEL_CALL),
  at: z.string().optional(),
  /** The deterministic step key a resumed run replays the call by. */
  key: z.string(),
  backend: z.string(),
  prompt: z.string(),
  status: CallStatus,
  /** Every reply received (a call-failure has none); spend counts these. */
  attempts: z.array(CallAttempt),
  value: z.unknown().optional(),
  raw: z.string().optional(),
  error: z.string().optional(),
  /** A call-failure's BackendError kind. */
  kind: z.string().optional(),
  sessionId: z.string().optional(),
  model: z.string().optional(),
});
export type ModelCallRecord = z.infer<typeof ModelCallRecord>;

/** Before one schema: dialogic wrote `model_call` with `ok`, never logging a call-failure. */
const LegacyDialogicCall = CallExtras.extend({
  type: z.literal(MODEL_CALL),
  at: z.string().optional(),
  key: z.string(),
  backend: z.string(),
  prompt: z.string(),
  ok: z.boolean(),
  attempts: z.array(CallAttempt),
  value: z.unknown().optional(),
  error: z.string().optional(),
  model: z.string().optional(),
});

/** Before one schema: debate wrote `debate.call` keyed by `step`; a call-failure had no attempts. */
const LegacyDebateCall = z.object({
  type: z.literal('debate.call'),
  at: z.string().optional(),
  step: z.string(),
  backend: z.string(),
  prompt: z.string(),
  status: CallStatus,
  attempts: z.array(CallAttempt).default([]),
  value: z.unknown().optional(),
  raw: z.string().optional(),
  error: z.string().optional(),
  kind: z.string().optional(),
  sessionId: z.string().optional(),
});

/**
 * A model-call record in the current shape, from any audit record: the current shape, or either
 * legacy shape (so runs started before it still resume and count their spend); else undefined.
 */
export function readModelCall(record: unknown): ModelCallRecord | undefined {
  const current = ModelCallRecord.safeParse(record);
  if (current.success) return current.data;
  const dialogic = LegacyDialogicCall.safeParse(record);
  if (dialogic.success) {
    const { ok, ...rest } = dialogic.data;
    const raw = rest.attempts.at(-1)?.raw;
    return { ...rest, status: ok ? 'ok' : 'format-failure', ...(raw !== undefined && { raw }) };
  }
  const debate = LegacyDebateCall.safeParse(record);
  if (debate.success) {
    const { step, ...rest } = debate.data;
    return { ...rest, type: MODEL_CALL, key: step };
  }
  return undefined;
}
