import { afterEach, describe, expect, it } from 'vitest';
import { BackendError, type Backend } from '../../wrapper/backend.js';
import { buildClaudeArgs, parseClaudeOutput, promptWithHistory } from '../../wrapper/claude-cli.js';
import { createBackend } from '../../wrapper/model-spec.js';
import { sendStructured } from '../../wrapper/structured.js';
import { z } from 'zod';
import { claudeBin, createClaudeHome, type ClaudeHome } from '../servers/claude-home.js';
import { startScriptedAnthropic, type AnthropicReply, type AnthropicRequestRecord, type ScriptedAnthropic } from '../servers/scripted-anthropic.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function setUp(script: AnthropicReply[] | ((req: AnthropicRequestRecord) => AnthropicReply), spec = 'claude:claude-sonnet-4-5') {
  const server: ScriptedAnthropic = await startScriptedAnthropic(script);
  cleanups.push(() => server.close());
  const home: ClaudeHome = await createClaudeHome(server.baseUrl);
  cleanups.push(() => home.remove());
  const backend: Backend = createBackend(spec, { binPath: claudeBin, env: home.env, cwd: home.cwd, timeoutMs: 60_000 });
  return { server, home, backend };
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

describe('Claude Code backend with the real claude 2.1.197 and a scripted Messages API', () => {
  it('answers a prompt sent on stdin, with the system prompt, no tools, usage and a session', async () => {
    const { server, backend } = await setUp((req) => ({ text: `echo: ${req.lastUserText}`, usage: { input: 321, output: 17 } }));
    const reply = await backend.send({ system: 'You are the arbiter.', history: [] }, 'Is A attacked by B?');
    expect(reply.text).toBe('echo: Is A attacked by B?');
    expect(reply.usage).toEqual({ inputTokens: 321, cachedInputTokens: 0, outputTokens: 17, reasoningTokens: 0 });
    expect(reply.model).toBe('claude-sonnet-4-5');
    expect(reply.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const turn = server.requests.find((r) => r.lastUserText === 'Is A attacked by B?');
    expect(turn?.model).toBe('claude-sonnet-4-5');
    expect(turn?.system).toContain('You are the arbiter.');
    expect(turn?.body.tools ?? []).toEqual([]);
  });

  it('resumes a session: the second turn carries the first exchange', async () => {
    const { server, backend } = await setUp((req) => ({ text: `reply ${req.index}` }));
    const first = await backend.send({ history: [] }, 'first question');
    const second = await backend.send({ history: [], sessionId: first.sessionId }, 'second question');
    expect(second.sessionId).toBe(first.sessionId);
    const last = server.requests.at(-1);
    const texts = JSON.stringify(last?.body.messages);
    expect(last?.lastUserText).toBe('second question');
    expect(texts).toContain('first question');
    expect(texts).toContain(first.text);
  });

  it('maps an unknown session to unknown-session', async () => {
    const { backend } = await setUp([{ text: 'unused' }]);
    const error = await caught(backend.send({ history: [], sessionId: '00000000-0000-4000-8000-000000000000' }, 'hello'));
    expect(error.kind).toBe('unknown-session');
    expect(error.detail.exitCode).toBe(1);
  });

  it('maps an API error reported by claude to turn-failed with the status', async () => {
    const { backend } = await setUp(() => ({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is malformed' } } }));
    const error = await caught(backend.send({ history: [] }, 'hello'));
    expect(error.kind).toBe('turn-failed');
    expect(error.detail.status).toBe(400);
    expect(error.message).toContain('prompt is malformed');
  });

  it('gets structured output by text extraction and repairs within the session', async () => {
    const replies = ['The verdict is yes.', '{"holds":true}'];
    const { backend } = await setUp(() => ({ text: replies.shift() ?? 'none left' }));
    const result = await sendStructured(backend, { history: [] }, 'Does it hold? Reply in JSON.', z.object({ holds: z.boolean() }));
    expect(result.ok && result.value).toEqual({ holds: true });
    expect(result.attempts).toHaveLength(2);
  });

  it('stops claude at our timeout when the server never answers', async () => {
    const { home } = await setUp([]);
    // A listening socket that accepts and never replies: claude would wait and retry for minutes.
    const { createServer } = await import('node:net');
    const sockets: import('node:net').Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          silent.close(() => resolve());
        }),
    );
    const address = silent.address() as import('node:net').AddressInfo;
    const env = { ...home.env, ANTHROPIC_BASE_URL: `http://127.0.0.1:${address.port}` };
    const backend = createBackend('claude', { binPath: claudeBin, env, cwd: home.cwd });
    const error = await caught(backend.send({ history: [] }, 'hello', { timeoutMs: 4_000 }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('4000 ms');
  });

  it('cancels a running claude through the abort signal', async () => {
    const { server, backend } = await setUp(() => ({ text: 'late', delayMs: 30_000 }));
    const controller = new AbortController();
    const pending = backend.send({ history: [] }, 'hello', { signal: controller.signal });
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    expect((await caught(pending)).kind).toBe('canceled');
  });

  it('reports a missing binary as not-found', async () => {
    const backend = createBackend('claude', { binPath: '/nonexistent/claude', env: {} });
    expect((await caught(backend.send({ history: [] }, 'x'))).kind).toBe('not-found');
  });
});

describe('Claude backend pieces', () => {
  it('builds argv: model, resume instead of system prompt, no tools by default', () => {
    expect(buildClaudeArgs({ model: 'opus' }, { system: 's', history: [] })).toEqual(['-p', '--output-format', 'json', '--model', 'opus', '--system-prompt', 's', '--tools', '']);
    expect(buildClaudeArgs({}, { system: 's', history: [], sessionId: 'abc' })).toEqual(['-p', '--output-format', 'json', '--resume', 'abc', '--tools', '']);
  });

  it('puts history into the prompt only when there is no session', () => {
    const history = [{ role: 'user' as const, content: 'q1' }, { role: 'assistant' as const, content: 'a1' }];
    expect(promptWithHistory({ history }, 'q2')).toMatch(/<user>\nq1\n<\/user>\n<assistant>\na1\n<\/assistant>[\s\S]*q2$/);
    expect(promptWithHistory({ history, sessionId: 'x' }, 'q2')).toBe('q2');
  });

  it('parses the result line and ignores other output', () => {
    expect(parseClaudeOutput('warning: x\n{"type":"result","result":"hi","session_id":"s"}\n')?.result).toBe('hi');
    expect(parseClaudeOutput('not json')).toBeUndefined();
  });
});
