import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCodexBackend, runCodex, type CodexCallOptions } from '../../../wrapper/codex/index.js';
import type { CodexEvent } from '../../../wrapper/codex/index.js';
import { CODEX_BIN, inputText, startRig, type LiveRig } from './live-helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const call = (rig: LiveRig, opts: Omit<CodexCallOptions, 'codexPath' | 'env'>) =>
  runCodex({ codexPath: CODEX_BIN, env: rig.env, cwd: rig.workDir, timeoutMs: 20_000, ...opts });

describe('runCodex against the real codex binary and a scripted server', () => {
  it('--json: new session, then resume with the per-turn usage difference', { timeout: 120_000 }, async () => {
    const rig = await startRig([
      { text: 'first answer', usage: { input: 100, cached: 40, output: 10, reasoning: 2 } },
      { text: 'second answer\nwith two lines', usage: { input: 150, cached: 60, output: 20, reasoning: 5 } },
    ]);
    const events: CodexEvent[] = [];
    const first = await call(rig, { prompt: 'question one', onEvent: (e) => events.push(e) });
    expect(first.answer).toBe('first answer');
    expect(first.sessionId).toMatch(UUID);
    expect(first.usage).toEqual({ inputTokens: 100, cachedInputTokens: 40, outputTokens: 10, reasoningTokens: 2 });
    expect(first.argv.at(-1)).toBe('-');
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['thread.started', 'turn.started', 'turn.completed']));
    expect(inputText(rig.server.requests[0]?.body)).toContain('question one');

    const second = await call(rig, { prompt: 'question two', sessionId: first.sessionId });
    expect(second.sessionId).toBe(first.sessionId);
    expect(second.answer).toBe('second answer\nwith two lines');
    expect(second.cumulativeUsage).toEqual({ inputTokens: 250, cachedInputTokens: 100, outputTokens: 30, reasoningTokens: 7 });
    expect(second.usage).toEqual({ inputTokens: 150, cachedInputTokens: 60, outputTokens: 20, reasoningTokens: 5 });
    const resumedInput = inputText(rig.server.requests[1]?.body);
    expect(resumedInput).toContain('question one');
    expect(resumedInput).toContain('first answer');
    expect(resumedInput).toContain('question two');
  });

  it('plain mode: answer from stdout, session id and token total from stderr, resume works', { timeout: 120_000 }, async () => {
    const rig = await startRig([{ text: 'plain one\ncodex\ntokens used\n7' }, { text: 'plain two' }]);
    const first = await call(rig, { prompt: 'p1', mode: 'plain' });
    expect(first.answer).toBe('plain one\ncodex\ntokens used\n7');
    expect(first.sessionId).toMatch(UUID);
    expect(first.model).toBe('fake-model');
    expect(first.usage.inputTokens).toBe(110);
    const second = await call(rig, { prompt: 'p2', mode: 'plain', sessionId: first.sessionId });
    expect(second).toMatchObject({ answer: 'plain two', sessionId: first.sessionId });
    expect(second.cumulativeUsage?.inputTokens).toBe(220);
    expect(second.usage.inputTokens).toBe(110);
  });

  it('a prompt larger than one argv string may be (128 KiB) goes through stdin', { timeout: 120_000 }, async () => {
    const rig = await startRig([{ text: 'got it' }]);
    const prompt = `-starts with a dash ${'x'.repeat(200 * 1024)} END-MARK`;
    const result = await call(rig, { prompt });
    expect(result.answer).toBe('got it');
    expect(inputText(rig.server.requests[0]?.body)).toContain('END-MARK');
  });

  it('a reply with a tool call: Codex runs it read-only and the command is reported', { timeout: 120_000 }, async () => {
    const rig = await startRig([
      { text: 'let me look', toolCall: { command: ['echo', 'marker-42'] } },
      { text: 'the tool printed marker-42' },
    ]);
    const result = await call(rig, { prompt: 'use a tool' });
    expect(result.answer).toBe('the tool printed marker-42');
    expect(result.commands).toHaveLength(1);
    expect(result.commands[0]?.exitCode).toBe(0);
    expect(result.commands[0]?.output).toContain('marker-42');
    expect(rig.server.requests).toHaveLength(2);
    expect(inputText(rig.server.requests[1]?.body)).toContain('function_call_output');
  });

  it("Codex's commands never see parley's keys: the process gets an allow-list, its commands only core variables", { timeout: 120_000 }, async () => {
    const rig = await startRig([{ text: 'checking', toolCall: { command: ['env'] } }, { text: 'done' }]);
    const secrets = { ANTHROPIC_API_KEY: 'sk-ant-secret-1', PARLEY_API_KEY: 'parley-secret-2', OPENAI_API_KEY: 'sk-openai-secret-3', AWS_SECRET_ACCESS_KEY: 'aws-secret-4' };
    const result = await runCodex({ codexPath: CODEX_BIN, env: { ...rig.env, ...secrets }, cwd: rig.workDir, timeoutMs: 20_000, prompt: 'print the environment' });
    const output = result.commands[0]?.output ?? '';
    expect(output).toContain('PATH=');
    for (const value of Object.values(secrets)) expect(output).not.toContain(value);
    expect(JSON.stringify(rig.server.requests.map((r) => r.body))).not.toMatch(/sk-ant-secret-1|parley-secret-2|aws-secret-4/);
  });

  it('--output-schema: the schema reaches the request as a strict json_schema and the temp file is removed', { timeout: 120_000 }, async () => {
    const rig = await startRig([{ text: '{"verdict":"yes"}' }]);
    const schema = { type: 'object', properties: { verdict: { type: 'string' } }, required: ['verdict'], additionalProperties: false };
    const result = await call(rig, { prompt: 'json please', outputSchema: schema });
    expect(JSON.parse(result.answer)).toEqual({ verdict: 'yes' });
    const format = rig.server.requests[0]?.body.text?.format;
    expect(format).toMatchObject({ type: 'json_schema', strict: true, schema });
    const schemaFile = result.argv[result.argv.indexOf('--output-schema') + 1];
    expect(schemaFile).toMatch(/output-schema\.json$/);
    expect(existsSync(schemaFile ?? '')).toBe(false);
  });

  it('model, reasoning effort, -c overrides and sandbox reach the request, on a new session and on resume', { timeout: 120_000 }, async () => {
    const rig = await startRig(() => ({ text: 'ok' }));
    const turnMetadata = (i: number): string => String(rig.server.requests[i]?.body.client_metadata?.['x-codex-turn-metadata']);
    const first = await call(rig, { prompt: 'x', model: 'chosen-model', reasoningEffort: 'high', config: { model_reasoning_summary: '"detailed"' } });
    expect(rig.server.requests[0]?.body).toMatchObject({ model: 'chosen-model', reasoning: { effort: 'high', summary: 'detailed' } });
    expect(turnMetadata(0)).toContain('"sandbox_mode":"read-only"');
    await call(rig, { prompt: 'y', sessionId: first.sessionId, model: 'resumed-model', reasoningEffort: 'low', sandbox: 'workspace-write' });
    expect(rig.server.requests[1]?.body).toMatchObject({ model: 'resumed-model', reasoning: { effort: 'low' } });
    expect(turnMetadata(1)).toContain('"sandbox_mode":"workspace-write"');
  });

  it('createCodexBackend: spec, first prompt with system and history, resume by sessionId', { timeout: 120_000 }, async () => {
    const rig = await startRig([{ text: 'backend one' }, { text: 'backend two' }, { text: '{"verdict":"ok"}' }]);
    const backend = createCodexBackend('codex', { codexPath: CODEX_BIN, env: rig.env, cwd: rig.workDir, timeoutMs: 20_000 });
    const reply = await backend.send({ system: 'SYSTEM-RULES', history: [{ role: 'user', content: 'EARLIER' }] }, 'NOW');
    expect(reply).toMatchObject({ text: 'backend one', model: 'codex-default' });
    expect(inputText(rig.server.requests[0]?.body)).toMatch(/SYSTEM-RULES.*EARLIER.*NOW/);
    const next = await backend.send({ history: [], sessionId: reply.sessionId! }, 'AGAIN');
    expect(next).toMatchObject({ text: 'backend two', sessionId: reply.sessionId });
    const structured = await backend.send({ history: [] }, 'JSON', { jsonSchema: { name: 'v', schema: z.object({ verdict: z.string() }) } });
    expect(JSON.parse(structured.text)).toEqual({ verdict: 'ok' });
    expect(rig.server.requests[2]?.body.text?.format).toMatchObject({ type: 'json_schema', schema: { properties: { verdict: { type: 'string' } }, required: ['verdict'] } });
    expect(() => createCodexBackend('openai:gpt-4.1')).toThrow(expect.objectContaining({ kind: 'bad-spec' }));
  });
});
