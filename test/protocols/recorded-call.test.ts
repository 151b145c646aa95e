import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordedCall, replayableCalls, NO_RETRIES } from '../../protocols/recorded-call.js';
import { spendFromAudit } from '../../protocols/sweep/spend.js';
import { ModelCallRecord, readModelCall } from '../../schemas/model-call.js';
import { openAuditLog, type AuditLog } from '../../state/audit-log.js';
import { BackendError, type Backend, type ModelReply } from '../../wrapper/backend.js';

const Answer = z.object({ answer: z.string() });
const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, cachedInputTokens: 0, outputTokens, reasoningTokens: 0 });

/** A backend that answers from a script (a reply text or an error per call) and counts its calls. */
function scripted(spec: string, script: (string | Error)[]): Backend & { calls: number } {
  const backend = {
    spec,
    calls: 0,
    async send(): Promise<ModelReply> {
      const next = script[backend.calls++] ?? new Error('script exhausted');
      if (next instanceof Error) throw next;
      return { text: next, usage: usage(10, 5), model: 'm1', latencyMs: 7 };
    },
  };
  return backend;
}

async function auditIn(lines: object[] = []): Promise<AuditLog> {
  const path = join(await mkdtemp(join(tmpdir(), 'parley-call-')), 'audit.jsonl');
  await writeFile(path, lines.map((line) => JSON.stringify(line) + '\n').join(''));
  return openAuditLog(path);
}

const callArgs = (audit: AuditLog, backend: Backend, replay = new Map()) => ({
  step: 'r1/agent-1',
  audit,
  replay,
  backend,
  conversation: { history: [] },
  prompt: 'answer',
  schema: Answer,
  schemaName: 'answer',
  options: {},
  signal: new AbortController().signal,
});

// Lines as parley wrote them before the one record schema.
const attempt = { prompt: 'answer', raw: '{"answer":"old"}', usage: usage(100, 20), latencyMs: 30 };
const legacyDialogic = { type: 'model_call', at: '2025-01-01T00:00:00.000Z', key: 'r1/agent-1', slot: 'model_a', backend: 'openai:gpt-4.1', system: 's', prompt: 'answer', attempts: [attempt], ok: true, model: 'gpt-4.1', value: { answer: 'old' } };
const legacyDialogicFailed = { ...legacyDialogic, key: 'x', ok: false, error: 'format failure', value: undefined };
const legacyDebate = { type: 'debate.call', at: '2025-01-01T00:00:00.000Z', step: 'r1/agent-1', backend: 'openai:gpt-4.1-mini', prompt: 'answer', status: 'ok', attempts: [attempt, attempt], raw: '{"answer":"old"}', value: { answer: 'old' }, sessionId: 'thread-1' };
const legacyDebateFailure = { type: 'debate.call', at: '2025-01-01T00:00:00.000Z', step: 'r2/agent-1', backend: 'openai:gpt-4.1-mini', prompt: 'answer', status: 'call-failure', error: 'HTTP 500', kind: 'http' };

describe('recordedCall: one module, one audit record', () => {
  it('sends, records one model_call in the schema, and replays it on resume without sending', async () => {
    const audit = await auditIn();
    const backend = scripted('openai:gpt-4.1', ['{"answer":"yes"}']);
    const first = await recordedCall(callArgs(audit, backend));
    expect(first).toMatchObject({ status: 'ok', value: { answer: 'yes' }, replayed: false, attempts: 1, usage: usage(10, 5) });
    const [record] = await audit.readAll();
    expect(ModelCallRecord.parse(record)).toMatchObject({ type: 'model_call', key: 'r1/agent-1', backend: 'openai:gpt-4.1', status: 'ok', model: 'm1', raw: '{"answer":"yes"}' });

    const again = await recordedCall(callArgs(audit, backend, replayableCalls(await audit.readAll())));
    expect(again).toMatchObject({ status: 'ok', value: { answer: 'yes' }, replayed: true, usage: usage(10, 5) });
    expect(backend.calls).toBe(1);
  });

  it('records a format failure and a call failure in the same shape', async () => {
    const audit = await auditIn();
    const format = await recordedCall(callArgs(audit, scripted('a:m', ['no json', 'still none'])));
    expect(format).toMatchObject({ status: 'format-failure', attempts: 2 });
    const failure = await recordedCall({ ...callArgs(audit, scripted('a:m', [new BackendError('http', 'HTTP 401', { status: 401 })])), step: 'r1/agent-2' });
    expect(failure).toMatchObject({ status: 'call-failure', error: 'HTTP 401', attempts: 0 });
    const records = (await audit.readAll()).map((record) => ModelCallRecord.parse(record));
    expect(records.map((record) => [record.status, record.attempts.length, record.kind])).toEqual([
      ['format-failure', 2, undefined],
      ['call-failure', 0, 'http'],
    ]);
  });

  it('retries transient failures only as its policy says', async () => {
    const overloaded = () => new BackendError('http', 'HTTP 503', { status: 503 });
    const withRetries = scripted('a:m', [overloaded(), overloaded(), '{"answer":"late"}']);
    const audit = await auditIn();
    expect(await recordedCall({ ...callArgs(audit, withRetries), retry: { transient: 2, baseMs: 0 } })).toMatchObject({ status: 'ok', value: { answer: 'late' } });
    expect((await audit.readAll()).map((record) => record.type)).toEqual(['transient_error', 'transient_error', 'model_call']);

    const none = scripted('a:m', [overloaded(), '{"answer":"late"}']);
    expect(await recordedCall({ ...callArgs(await auditIn(), none), retry: NO_RETRIES })).toMatchObject({ status: 'call-failure', error: 'HTTP 503' });
    expect(none.calls).toBe(1);
  });
});

describe('audit lines written before the one schema', () => {
  it('reads both legacy shapes as model-call records', () => {
    expect(readModelCall(legacyDialogic)).toMatchObject({ type: 'model_call', key: 'r1/agent-1', status: 'ok', raw: '{"answer":"old"}', slot: 'model_a' });
    expect(readModelCall(legacyDialogicFailed)).toMatchObject({ key: 'x', status: 'format-failure' });
    expect(readModelCall(legacyDebate)).toMatchObject({ type: 'model_call', key: 'r1/agent-1', status: 'ok', sessionId: 'thread-1' });
    expect(readModelCall(legacyDebateFailure)).toMatchObject({ key: 'r2/agent-1', status: 'call-failure', attempts: [] });
    expect(readModelCall({ type: 'transient_error', key: 'r1/agent-1', kind: 'http' })).toBeUndefined();
  });

  it.each([
    ['dialogic model_call with ok', legacyDialogic],
    ['debate.call with step', legacyDebate],
  ])('resumes a run whose %s: the reply is replayed, nothing is sent', async (_name, line) => {
    const audit = await auditIn([line]);
    const backend = scripted('openai:gpt-4.1', ['{"answer":"new"}']);
    const outcome = await recordedCall(callArgs(audit, backend, replayableCalls(await audit.readAll())));
    expect(outcome).toMatchObject({ status: 'ok', value: { answer: 'old' }, replayed: true, usage: usage(100 * line.attempts.length, 20 * line.attempts.length) });
    expect(backend.calls).toBe(0);
  });

  it('counts the spend of legacy and current records alike', async () => {
    const audit = await auditIn([legacyDialogic, legacyDialogicFailed, legacyDebate, legacyDebateFailure]);
    await recordedCall({ ...callArgs(audit, scripted('openai:gpt-4.1', ['{"answer":"yes"}'])), step: 'r3/agent-1' });
    const spend = spendFromAudit(await audit.readAll(), { 'gpt-4.1': { input: 2, output: 8 }, 'gpt-4.1-mini': { input: 1, output: 1 } });
    expect(spend.byBackend['openai:gpt-4.1']).toMatchObject({ calls: 3, usage: usage(210, 45) });
    expect(spend.byBackend['openai:gpt-4.1-mini']).toMatchObject({ calls: 2, usage: usage(200, 40) });
    expect(spend.costUsd).toBeCloseTo((210 * 2 + 45 * 8 + 200 + 40) / 1_000_000, 12);
  });
});
