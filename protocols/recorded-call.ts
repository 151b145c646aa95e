import type { z } from 'zod';
import { addUsage, zeroUsage, type Usage } from '../schemas/common.js';
import { MODEL_CALL, readModelCall, type CallAttempt, type CallExtras, type ModelCallRecord } from '../schemas/model-call.js';
import type { AuditLog, AuditRecord } from '../state/audit-log.js';
import { BackendError, type Backend, type Conversation, type SendOptions } from '../wrapper/backend.js';
import { sendStructured } from '../wrapper/structured.js';

/**
 * `sessionId`: where a session backend (codex, claude) left the conversation, to resume next time.
 * `attempts`: replies received (a repair retry is a second one); recordedCall always sets it.
 */
export type CallOutcome<T> =
  | { status: 'ok'; value: T; raw: string; usage: Usage; latencyMs: number; replayed: boolean; sessionId?: string; attempts?: number }
  | { status: 'format-failure'; error: string; raw: string; usage: Usage; latencyMs: number; replayed: boolean; sessionId?: string; attempts?: number }
  /** `cause`: what the backend threw, for a caller that stops on it. */
  | { status: 'call-failure'; error: string; usage: Usage; latencyMs: number; replayed: boolean; attempts?: number; cause?: unknown };

/**
 * Transient failures (429, 5xx, timeouts) are sent again up to `transient` times, pausing
 * `baseMs * 2^n`, each logged as a `transient_error` record. The backend's own retries come first.
 */
export interface RetryPolicy {
  transient: number;
  baseMs: number;
}

export const NO_RETRIES: RetryPolicy = { transient: 0, baseMs: 0 };

/** Calls of earlier attempts of this run that can be replayed, by step key (the last valid record wins). */
export type Replay = Map<string, ModelCallRecord>;

export function replayableCalls(records: readonly AuditRecord[]): Replay {
  const calls: Replay = new Map();
  for (const record of records) {
    const call = readModelCall(record);
    if (call?.status === 'ok') calls.set(call.key, call);
  }
  return calls;
}

export interface RecordedCallArgs<T> {
  /** The deterministic step key, e.g. `r2/agent-1` or `c1/negotiate/a3/x2/respond`. */
  step: string;
  /** Older keys of the same step, replayed when a run started before a renaming is resumed. */
  formerSteps?: readonly string[];
  audit: AuditLog;
  replay: Replay;
  backend: Backend;
  conversation: Conversation;
  prompt: string;
  schema: z.ZodType<T>;
  schemaName: string;
  options: SendOptions;
  signal: AbortSignal;
  retry?: RetryPolicy;
  /** Protocol facts stored with the record (e.g. the dialogic slot and system prompt). */
  extras?: CallExtras;
}

const sumUsage = (attempts: readonly CallAttempt[]): Usage => attempts.reduce((total, attempt) => addUsage(total, attempt.usage), zeroUsage());
const sumLatency = (attempts: readonly CallAttempt[]): number => attempts.reduce((total, attempt) => total + attempt.latencyMs, 0);
const TRANSIENT: ReadonlySet<string> = new Set(['rate-limited', 'timeout', 'http']);

/**
 * One structured model call under a deterministic step key: replayed from the audit log when an
 * earlier attempt of the run recorded a valid reply, otherwise sent (with one repair retry, and
 * transient retries by `retry`) and recorded as one `model_call` record whatever its outcome.
 */
export async function recordedCall<T>(args: RecordedCallArgs<T>): Promise<CallOutcome<T>> {
  const recorded = [args.step, ...(args.formerSteps ?? [])].map((step) => args.replay.get(step)).find((call) => call !== undefined);
  if (recorded) {
    const parsed = args.schema.safeParse(recorded.value);
    if (parsed.success && recorded.raw !== undefined) {
      const session = recorded.sessionId !== undefined ? { sessionId: recorded.sessionId } : {};
      return { status: 'ok', value: parsed.data, raw: recorded.raw, usage: sumUsage(recorded.attempts), latencyMs: sumLatency(recorded.attempts), replayed: true, attempts: recorded.attempts.length, ...session };
    }
  }
  args.signal.throwIfAborted();
  const base = { type: MODEL_CALL, key: args.step, backend: args.backend.spec, ...args.extras, prompt: args.prompt } as const;
  try {
    const result = await sendWithRetries(args);
    const usage = sumUsage(result.attempts);
    const latencyMs = sumLatency(result.attempts);
    const raw = result.attempts.at(-1)?.raw ?? '';
    const attempts = result.attempts.length;
    const sessionId = result.ok ? result.reply.sessionId : result.sessionId;
    const session = sessionId ? { sessionId } : {};
    if (result.ok) {
      const record: ModelCallRecord = { ...base, status: 'ok', attempts: result.attempts, raw, value: result.value, model: result.reply.model, ...session };
      await args.audit.append(record);
      args.replay.set(args.step, record);
      return { status: 'ok', value: result.value, raw, usage, latencyMs, replayed: false, attempts, ...session };
    }
    await args.audit.append({ ...base, status: 'format-failure', attempts: result.attempts, raw, error: result.error, ...session } satisfies ModelCallRecord);
    return { status: 'format-failure', error: result.error, raw, usage, latencyMs, replayed: false, attempts, ...session };
  } catch (error) {
    if (args.signal.aborted) throw args.signal.reason ?? error;
    if (error instanceof BackendError && error.kind === 'canceled') throw error;
    const message = error instanceof Error ? error.message : String(error);
    const kind = error instanceof BackendError ? error.kind : 'unknown';
    await args.audit.append({ ...base, status: 'call-failure', attempts: [], error: message, kind } satisfies ModelCallRecord);
    return { status: 'call-failure', error: message, usage: zeroUsage(), latencyMs: 0, replayed: false, attempts: 0, cause: error };
  }
}

async function sendWithRetries<T>(args: RecordedCallArgs<T>) {
  const retry = args.retry ?? NO_RETRIES;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await sendStructured(args.backend, args.conversation, args.prompt, args.schema, { ...args.options, schemaName: args.schemaName, signal: args.signal });
    } catch (error) {
      const transient = error instanceof BackendError && TRANSIENT.has(error.kind) && (error.kind !== 'http' || (error.detail.status ?? 500) >= 500);
      if (!transient || attempt >= retry.transient || args.signal.aborted) throw error;
      await args.audit.append({ type: 'transient_error', key: args.step, kind: error.kind, message: error.message, retry: attempt + 1 });
      await pause(retry.baseMs * 2 ** attempt, args.signal);
    }
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
