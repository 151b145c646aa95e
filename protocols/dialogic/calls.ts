import type { z } from 'zod';
import type { AuditLog, AuditRecord } from '../../state/audit-log.js';
import { BackendError, type Backend, type Conversation } from '../../wrapper/backend.js';
import { sendStructured } from '../../wrapper/structured.js';
import type { ModelSlot } from '../../schemas/dialogic.js';
import { addUsage, zeroUsage, type Usage } from '../../schemas/common.js';
import { UserFacingError } from '../../schemas/user-facing-error.js';

/**
 * Model calls and protocol events, each under a deterministic step key
 * (e.g. `c1/negotiate/a3/x2/respond`). A call whose key already has a valid reply in the audit
 * log is replayed from it instead of being sent again; an event already logged is not repeated.
 */

export class DialogicCallError extends UserFacingError {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(`dialogic step ${key}: ${message}`, { code: 'dialogic-call' });
  }
}

export interface Participant {
  slot: ModelSlot;
  backend: Backend;
  system: string;
}

export interface CallRequest<T> {
  key: string;
  who: Participant;
  prompt: string;
  schema: z.ZodType<T>;
  schemaName: string;
  /** Older keys of the same step, replayed when a run started before a renaming is resumed. */
  formerKeys?: readonly string[];
}

export interface RecorderOptions {
  temperature: number;
  timeoutMs: number;
  signal: AbortSignal;
  /** Transient failures (429, 5xx, timeouts) are retried this many times with a growing pause. */
  transientRetries?: number;
  retryBaseMs?: number;
}

const TRANSIENT: ReadonlySet<string> = new Set(['rate-limited', 'timeout', 'http']);

export class CallRecorder {
  sent = 0;
  replayed = 0;
  usage: Usage = zeroUsage();

  private constructor(
    private readonly audit: AuditLog,
    private readonly replies: Map<string, unknown>,
    private readonly eventKeys: Set<string>,
    private readonly options: RecorderOptions,
  ) {}

  static async open(audit: AuditLog, options: RecorderOptions): Promise<CallRecorder> {
    const records = await audit.readAll();
    return new CallRecorder(audit, collectReplies(records), collectEventKeys(records), options);
  }

  async call<T>(request: CallRequest<T>): Promise<T> {
    const stored = [request.key, ...(request.formerKeys ?? [])].map((key) => this.replies.get(key)).find((reply) => reply !== undefined);
    if (stored !== undefined) {
      const parsed = request.schema.safeParse(stored);
      if (parsed.success) {
        this.replayed += 1;
        return parsed.data;
      }
    }
    this.options.signal.throwIfAborted();
    const conversation: Conversation = { system: request.who.system, history: [] };
    const result = await this.sendWithRetries(request, conversation);
    const attempts = result.attempts.map((attempt) => ({
      prompt: attempt.prompt,
      raw: attempt.raw,
      ...(attempt.error !== undefined && { error: attempt.error }),
      usage: attempt.usage,
      latencyMs: attempt.latencyMs,
    }));
    for (const attempt of result.attempts) this.usage = addUsage(this.usage, attempt.usage);
    this.sent += result.attempts.length;
    const base = { key: request.key, slot: request.who.slot, backend: request.who.backend.spec, system: request.who.system, prompt: request.prompt, attempts };
    if (!result.ok) {
      await this.audit.append({ type: 'model_call', ...base, ok: false, error: result.error });
      throw new DialogicCallError(request.key, `the ${request.who.slot} reply could not be used after ${attempts.length} attempt(s): ${result.error}`);
    }
    await this.audit.append({ type: 'model_call', ...base, ok: true, model: result.reply.model, value: result.value });
    this.replies.set(request.key, result.value);
    return result.value;
  }

  /** Appends a protocol event once; replaying a resumed run does not write it twice. */
  async event(key: string, type: string, data: Record<string, unknown>): Promise<void> {
    if (this.eventKeys.has(key)) return;
    this.eventKeys.add(key);
    await this.audit.append({ type, key, ...data });
  }

  private async sendWithRetries<T>(request: CallRequest<T>, conversation: Conversation) {
    const retries = this.options.transientRetries ?? 3;
    const base = this.options.retryBaseMs ?? 1000;
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await sendStructured(request.who.backend, conversation, request.prompt, request.schema, {
          temperature: this.options.temperature,
          timeoutMs: this.options.timeoutMs,
          signal: this.options.signal,
          schemaName: request.schemaName,
        });
      } catch (error) {
        const transient = error instanceof BackendError && TRANSIENT.has(error.kind) && (error.kind !== 'http' || (error.detail.status ?? 500) >= 500);
        if (!transient || attempt >= retries || this.options.signal.aborted) throw error;
        await this.audit.append({ type: 'transient_error', key: request.key, kind: error.kind, message: error.message, retry: attempt + 1 });
        await pause(base * 2 ** attempt, this.options.signal);
      }
    }
  }
}

function collectReplies(records: AuditRecord[]): Map<string, unknown> {
  const replies = new Map<string, unknown>();
  for (const record of records) {
    if (record.type === 'model_call' && record.ok === true && typeof record.key === 'string') replies.set(record.key, record.value);
  }
  return replies;
}

function collectEventKeys(records: AuditRecord[]): Set<string> {
  const keys = new Set<string>();
  for (const record of records) {
    if (record.type !== 'model_call' && typeof record.key === 'string') keys.add(record.key);
  }
  return keys;
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
