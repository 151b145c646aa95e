import type { z } from 'zod';
import type { AuditLog, AuditRecord } from '../../state/audit-log.js';
import type { Backend } from '../../wrapper/backend.js';
import type { ModelSlot } from '../../schemas/dialogic.js';
import { addUsage, zeroUsage, type Usage } from '../../schemas/common.js';
import { MODEL_CALL } from '../../schemas/model-call.js';
import { UserFacingError } from '../../schemas/user-facing-error.js';
import { recordedCall, replayableCalls, type Replay, type RetryPolicy } from '../recorded-call.js';

/**
 * Model calls and protocol events, each under a deterministic step key
 * (e.g. `c1/negotiate/a3/x2/respond`). Calls go through protocols/recorded-call.ts (replayed from
 * the audit log when already answered); an event already logged is not repeated. A call that
 * fails stops the run: it throws.
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

export class CallRecorder {
  sent = 0;
  replayed = 0;
  usage: Usage = zeroUsage();

  private constructor(
    private readonly audit: AuditLog,
    private readonly replay: Replay,
    private readonly eventKeys: Set<string>,
    private readonly options: RecorderOptions,
    private readonly retry: RetryPolicy,
  ) {}

  static async open(audit: AuditLog, options: RecorderOptions): Promise<CallRecorder> {
    const records = await audit.readAll();
    const retry = { transient: options.transientRetries ?? 3, baseMs: options.retryBaseMs ?? 1000 };
    return new CallRecorder(audit, replayableCalls(records), collectEventKeys(records), options, retry);
  }

  async call<T>(request: CallRequest<T>): Promise<T> {
    const outcome = await recordedCall({
      step: request.key,
      ...(request.formerKeys && { formerSteps: request.formerKeys }),
      audit: this.audit,
      replay: this.replay,
      backend: request.who.backend,
      conversation: { system: request.who.system, history: [] },
      prompt: request.prompt,
      schema: request.schema,
      schemaName: request.schemaName,
      options: { temperature: this.options.temperature, timeoutMs: this.options.timeoutMs },
      signal: this.options.signal,
      retry: this.retry,
      extras: { slot: request.who.slot, system: request.who.system },
    });
    if (outcome.replayed) {
      this.replayed += 1;
    } else {
      this.sent += outcome.attempts ?? 0;
      this.usage = addUsage(this.usage, outcome.usage);
    }
    if (outcome.status === 'call-failure') throw outcome.cause ?? new DialogicCallError(request.key, outcome.error);
    if (outcome.status === 'format-failure') {
      throw new DialogicCallError(request.key, `the ${request.who.slot} reply could not be used after ${outcome.attempts ?? 0} attempt(s): ${outcome.error}`);
    }
    return outcome.value;
  }

  /** Appends a protocol event once; replaying a resumed run does not write it twice. */
  async event(key: string, type: string, data: Record<string, unknown>): Promise<void> {
    if (this.eventKeys.has(key)) return;
    this.eventKeys.add(key);
    await this.audit.append({ type, key, ...data });
  }
}

function collectEventKeys(records: AuditRecord[]): Set<string> {
  const keys = new Set<string>();
  for (const record of records) {
    if (record.type !== MODEL_CALL && typeof record.key === 'string') keys.add(record.key);
  }
  return keys;
}
