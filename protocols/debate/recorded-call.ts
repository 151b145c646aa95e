import type { z } from 'zod';
import { addUsage, zeroUsage, type Usage } from '../../schemas/common.js';
import type { AuditLog, AuditRecord } from '../../state/audit-log.js';
import { BackendError, type Backend, type Conversation, type SendOptions } from '../../wrapper/backend.js';
import { sendStructured, type StructuredAttempt } from '../../wrapper/structured.js';

export const CALL_RECORD = 'debate.call';

/** `sessionId`: where a session backend (codex, claude) left the conversation, to resume next round. */
export type CallOutcome<T> =
  | { status: 'ok'; value: T; raw: string; usage: Usage; latencyMs: number; replayed: boolean; sessionId?: string }
  | { status: 'format-failure'; error: string; raw: string; usage: Usage; latencyMs: number; replayed: boolean; sessionId?: string }
  | { status: 'call-failure'; error: string; usage: Usage; latencyMs: number; replayed: boolean };

/** Completed calls of an earlier attempt of this run, by step key (the last valid record wins). */
export function replayableCalls(records: AuditRecord[]): Map<string, AuditRecord> {
  const calls = new Map<string, AuditRecord>();
  for (const record of records) {
    if (record.type === CALL_RECORD && record.status === 'ok' && typeof record.step === 'string') calls.set(record.step, record);
  }
  return calls;
}

const sumUsage = (attempts: StructuredAttempt[]): Usage => attempts.reduce((total, attempt) => addUsage(total, attempt.usage), zeroUsage());
const sumLatency = (attempts: StructuredAttempt[]): number => attempts.reduce((total, attempt) => total + attempt.latencyMs, 0);

/**
 * One model call under a deterministic step key: replayed from the audit log when an earlier attempt
 * of the run recorded a valid reply, otherwise sent (with one repair retry) and recorded.
 */
export async function recordedCall<T>(args: {
  step: string;
  audit: AuditLog;
  replay: Map<string, AuditRecord>;
  backend: Backend;
  conversation: Conversation;
  prompt: string;
  schema: z.ZodType<T>;
  schemaName: string;
  options: SendOptions;
  signal: AbortSignal;
}): Promise<CallOutcome<T>> {
  const recorded = args.replay.get(args.step);
  if (recorded) {
    const parsed = args.schema.safeParse(recorded.value);
    if (parsed.success && typeof recorded.raw === 'string') {
      const attempts = Array.isArray(recorded.attempts) ? (recorded.attempts as StructuredAttempt[]) : [];
      const sessionId = typeof recorded.sessionId === 'string' ? { sessionId: recorded.sessionId } : {};
      return { status: 'ok', value: parsed.data, raw: recorded.raw, usage: sumUsage(attempts), latencyMs: sumLatency(attempts), replayed: true, ...sessionId };
    }
  }
  const base = { step: args.step, backend: args.backend.spec, prompt: args.prompt };
  try {
    const result = await sendStructured(args.backend, args.conversation, args.prompt, args.schema, { ...args.options, schemaName: args.schemaName, signal: args.signal });
    const usage = sumUsage(result.attempts);
    const latencyMs = sumLatency(result.attempts);
    const raw = result.attempts.at(-1)?.raw ?? '';
    const sessionId = result.ok ? result.reply.sessionId : result.sessionId;
    const session = sessionId ? { sessionId } : {};
    if (result.ok) {
      await args.audit.append({ type: CALL_RECORD, ...base, status: 'ok', attempts: result.attempts, raw, value: result.value, ...session });
      return { status: 'ok', value: result.value, raw, usage, latencyMs, replayed: false, ...session };
    }
    await args.audit.append({ type: CALL_RECORD, ...base, status: 'format-failure', attempts: result.attempts, raw, error: result.error, ...session });
    return { status: 'format-failure', error: result.error, raw, usage, latencyMs, replayed: false, ...session };
  } catch (error) {
    if (args.signal.aborted) throw args.signal.reason ?? error;
    if (error instanceof BackendError && error.kind === 'canceled') throw error;
    const message = error instanceof Error ? error.message : String(error);
    await args.audit.append({ type: CALL_RECORD, ...base, status: 'call-failure', error: message, kind: error instanceof BackendError ? error.kind : 'unknown' });
    return { status: 'call-failure', error: message, usage: zeroUsage(), latencyMs: 0, replayed: false };
  }
}
