import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BackendError } from '../../wrapper/backend.js';
import { createBackend } from '../../wrapper/model-spec.js';
import { startScriptedChat, type ChatReply, type ChatRequestRecord, type ScriptedChat } from '../doubles/scripted-chat.js';

let server: ScriptedChat | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: ChatReply[] | ((req: ChatRequestRecord) => ChatReply)) {
  server = await startScriptedChat(script);
  return server;
}

async function caught(promise: Promise<unknown>): Promise<BackendError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BackendError) return error;
    throw error;
  }
  throw new Error('expected a BackendError');
}

const noConversation = { history: [] };

describe('OpenAI-compatible backend against the scripted chat server', () => {
  it('sends system, history and prompt; returns text, usage and model', async () => {
    const s = await serve([{ content: 'the answer', usage: { prompt: 42, completion: 7 } }]);
    const backend = createBackend(`openai-compatible:${s.baseUrl}#test-model`, { env: {} });
    const reply = await backend.send(
      { system: 'be brief', history: [{ role: 'user', content: 'q1' }, { role: 'assistant', content: 'a1' }] },
      'q2',
    );
    expect(reply.text).toBe('the answer');
    expect(reply.usage).toEqual({ inputTokens: 42, cachedInputTokens: 0, outputTokens: 7, reasoningTokens: 0 });
    expect(reply.model).toBe('test-model');
    expect(reply.latencyMs).toBeGreaterThanOrEqual(0);
    expect(s.requests[0]?.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'q2' },
    ]);
    expect(s.requests[0]?.stream).toBe(false);
  });

  it('maps cached prompt tokens and reasoning tokens', async () => {
    const s = await serve([{ content: 'x', usage: { prompt: 100, completion: 30, cached: 64, reasoning: 12 } }]);
    const reply = await createBackend(`openai-compatible:${s.baseUrl}#m`, { env: {} }).send(noConversation, 'p');
    expect(reply.usage).toEqual({ inputTokens: 100, cachedInputTokens: 64, outputTokens: 30, reasoningTokens: 12 });
  });

  it('passes temperature and seed through, and omits them when not given', async () => {
    const s = await serve([{ content: 'x' }, { content: 'y' }]);
    const backend = createBackend(`openai-compatible:${s.baseUrl}#m`, { env: {} });
    await backend.send(noConversation, 'p', { temperature: 0.3, seed: 1234 });
    await backend.send(noConversation, 'p');
    expect(s.requests[0]?.body.temperature).toBe(0.3);
    expect(s.requests[0]?.body.seed).toBe(1234);
    expect(s.requests[1]?.body).not.toHaveProperty('temperature');
    expect(s.requests[1]?.body).not.toHaveProperty('seed');
  });

  it('drops seed and response_format for a provider that ignores them (anthropic preset)', async () => {
    const s = await serve([{ content: '{"a":1}' }]);
    const backend = createBackend('anthropic:claude-sonnet-4-5', { env: { ANTHROPIC_API_KEY: 'k-anthropic' }, baseUrl: s.baseUrl });
    await backend.send(noConversation, 'p', { seed: 9, jsonSchema: { name: 'x', schema: z.object({ a: z.number() }) } });
    expect(s.requests[0]?.body).not.toHaveProperty('seed');
    expect(s.requests[0]?.body).not.toHaveProperty('response_format');
  });

  it('sends PARLEY_API_KEY as a bearer token to the endpoints in PARLEY_API_BASE_URL only, and none is required', async () => {
    const s = await serve(() => ({ content: 'ok' }));
    const withKey = createBackend(`openai-compatible:${s.baseUrl}#m`, { env: { PARLEY_API_KEY: 'secret-123456', PARLEY_API_BASE_URL: s.baseUrl, OPENAI_API_KEY: 'sk-other' } });
    const withoutKey = createBackend(`openai-compatible:${s.baseUrl}#m`, { env: { OPENAI_API_KEY: 'sk-other' } });
    const unconfigured = createBackend(`openai-compatible:${s.baseUrl}#m`, { env: { PARLEY_API_KEY: 'secret-123456' } });
    expect((await withKey.send(noConversation, 'p')).text).toBe('ok');
    expect((await withoutKey.send(noConversation, 'p')).text).toBe('ok');
    expect((await unconfigured.send(noConversation, 'p')).text).toBe('ok');
    expect(s.requests[0]?.authorization).toBe('Bearer secret-123456');
    expect(s.requests[1]?.authorization).not.toContain('sk-other');
    expect(s.requests[2]?.authorization).not.toContain('secret-123456');
  });

  it('uses OPENAI_API_KEY for the openai preset', async () => {
    const s = await serve([{ content: 'ok' }]);
    const backend = createBackend('openai:gpt-4.1', { env: { OPENAI_API_KEY: 'sk-from-env' }, baseUrl: s.baseUrl });
    await backend.send(noConversation, 'p');
    expect(s.requests[0]?.authorization).toBe('Bearer sk-from-env');
    expect(s.requests[0]?.model).toBe('gpt-4.1');
  });

  it('streams: concatenates deltas and reads usage from the final chunk', async () => {
    const s = await serve([{ content: 'a streamed reply that spans several chunks', usage: { prompt: 11, completion: 9 } }]);
    const backend = createBackend(`openai-compatible:${s.baseUrl}#m`, { env: {}, stream: true });
    const reply = await backend.send(noConversation, 'p');
    expect(reply.text).toBe('a streamed reply that spans several chunks');
    expect(reply.usage.inputTokens).toBe(11);
    expect(reply.usage.outputTokens).toBe(9);
    expect(s.requests[0]?.stream).toBe(true);
    expect(s.requests[0]?.body.stream_options).toEqual({ include_usage: true });
  });

  it('retries a 429 (honouring retry-after) and then succeeds', async () => {
    const s = await serve([{ status: 429, headers: { 'retry-after-ms': '20' } }, { content: 'after the limit' }]);
    const backend = createBackend(`openai-compatible:${s.baseUrl}#m`, { env: {}, maxRetries: 2 });
    const reply = await backend.send(noConversation, 'p');
    expect(reply.text).toBe('after the limit');
    expect(s.requests).toHaveLength(2);
  });

  it('gives a clear http error once 500s exhaust the retries', async () => {
    const s = await serve(() => ({ status: 500, headers: { 'retry-after-ms': '5' }, body: { error: { message: 'upstream exploded' } } }));
    const backend = createBackend(`openai-compatible:${s.baseUrl}#m`, { env: {}, maxRetries: 2 });
    const error = await caught(backend.send(noConversation, 'p'));
    expect(error.kind).toBe('http');
    expect(error.detail.status).toBe(500);
    expect(error.message).toMatch(/HTTP 500.*upstream exploded/);
    expect(s.requests).toHaveLength(3);
  });

  it('reports rate-limited when 429s exhaust the retries', async () => {
    const s = await serve(() => ({ status: 429, headers: { 'retry-after-ms': '5' } }));
    const backend = createBackend(`openai-compatible:${s.baseUrl}#m`, { env: {}, maxRetries: 1 });
    const error = await caught(backend.send(noConversation, 'p'));
    expect(error.kind).toBe('rate-limited');
    expect(error.detail.status).toBe(429);
  });

  it('times out a call that does not answer in time, and makes no retry past the deadline', async () => {
    const s = await serve(() => ({ content: 'too late', delayMs: 5_000 }));
    const backend = createBackend(`openai-compatible:${s.baseUrl}#m`, { env: {}, maxRetries: 3 });
    const error = await caught(backend.send(noConversation, 'p', { timeoutMs: 300 }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('300 ms');
    expect(s.requests).toHaveLength(1);
  });

  it('cancels a call in flight through the abort signal', async () => {
    const s = await serve(() => ({ content: 'never seen', delayMs: 5_000 }));
    const backend = createBackend(`openai-compatible:${s.baseUrl}#m`, { env: {} });
    const controller = new AbortController();
    const pending = backend.send(noConversation, 'p', { signal: controller.signal });
    while (s.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const error = await caught(pending);
    expect(error.kind).toBe('canceled');
  });

  it('reports an unreachable server as http with a hint', async () => {
    const s = await serve([]);
    const url = s.baseUrl;
    await s.close();
    server = undefined;
    const backend = createBackend(`openai-compatible:${url}#m`, { env: {}, maxRetries: 0 });
    const error = await caught(backend.send(noConversation, 'p'));
    expect(error.kind).toBe('http');
    expect(error.message).toMatch(/Could not reach/);
  });

  it('never puts the key into an error message', async () => {
    const key = 'sk-very-secret-key-000111';
    const s = await serve(() => ({ status: 401, body: { error: { message: `Incorrect API key provided: ${key}` } } }));
    const backend = createBackend(`openai-compatible:${s.baseUrl}#m`, { env: {}, apiKey: key, maxRetries: 0 });
    const error = await caught(backend.send(noConversation, 'p'));
    expect(error.detail.status).toBe(401);
    expect(error.message).not.toContain(key);
    expect(error.message).toContain('[redacted]');
    expect(JSON.stringify(backend)).not.toContain(key);
  });

  it('reports an empty answer', async () => {
    const s = await serve([{ content: '' }]);
    const backend = createBackend(`openai-compatible:${s.baseUrl}#m`, { env: {} });
    expect((await caught(backend.send(noConversation, 'p'))).kind).toBe('empty-answer');
  });
});
