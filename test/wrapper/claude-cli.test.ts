import { afterEach, describe, expect, it } from 'vitest';
import { BackendError, type Backend } from '../../wrapper/backend.js';
import { buildClaudeArgs, parseClaudeOutput, promptWithHistory } from '../../wrapper/claude-cli.js';
import { createBackend } from '../../wrapper/model-spec.js';
import { sendStructured } from '../../wrapper/structured.js';
import { z } from 'zod';
import { claudeBin, createClaudeHome, type ClaudeHome } from '../doubles/claude-home.js';
import { startScriptedAnthropic, type AnthropicReply, type AnthropicRequestRecord, type ScriptedAnthropic } from '../doubles/scripted-anthropic.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function setUp(script: AnthropicReply[] | ((req: AnthropicRequestRecord) => AnthropicReply | Promise<AnthropicReply>), spec = 'claude:claude-sonnet-4-5') {
  const server: ScriptedAnthropic = await startScriptedAnthropic(script);
  cleanups.push(() => server.close());
  const home: ClaudeHome = await createClaudeHome(server.baseUrl);
  cleanups.push(() => home.remove());
  const backend: Backend = createBackend(spec, { binPath: claudeBin, env: home.env, cwd: home.cwd, timeoutMs: 60_000 });
  return { server, home, backend };
}

/** Live processes whose environment names this temporary home (Linux /proc). */
async function processesWithHome(home: string): Promise<number[]> {
  const { readdir, readFile } = await import('node:fs/promises');
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = await readFile(`/proc/${entry}/environ`, 'utf8');
      const status = await readFile(`/proc/${entry}/status`, 'utf8');
      if (environ.includes(`HOME=${home}\0`) && !/^State:\s+Z/m.test(status)) pids.push(Number(entry));
    } catch {
      // gone or not ours to read
    }
  }
  return pids;
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

// Each test runs the real claude one to three times, ~10 s each on a loaded 2-core machine: a guard, not a measured time.
describe('Claude Code backend with the real claude 2.1.197 and a scripted Messages API', { timeout: 120_000 }, () => {
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

  it('counts cache reads and writes as input, cache reads also as cached', async () => {
    const { backend } = await setUp([{ text: 'cached reply', usage: { input: 10, output: 4, cacheRead: 400, cacheCreation: 50 } }]);
    const reply = await backend.send({ history: [] }, 'hello');
    expect(reply.usage).toEqual({ inputTokens: 460, cachedInputTokens: 400, outputTokens: 4, reasoningTokens: 0 });
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

  it('gets structured output through --json-schema: the StructuredOutput tool input is the reply', async () => {
    const { server, backend } = await setUp((req) =>
      (req.body.tools ?? []).some((tool: { name: string }) => tool.name === 'StructuredOutput')
        ? { toolUse: { name: 'StructuredOutput', input: { holds: true, why: 'B undercuts A' } } }
        : { text: 'no schema was offered' },
    );
    const Holds = z.object({ holds: z.boolean(), why: z.string() });
    const result = await sendStructured(backend, { history: [] }, 'Does it hold?', Holds);
    expect(result.ok && result.value).toEqual({ holds: true, why: 'B undercuts A' });
    expect(result.attempts).toHaveLength(1);
    const offered = server.requests[0]?.body.tools.find((tool: { name: string }) => tool.name === 'StructuredOutput');
    expect(offered.input_schema.properties.holds).toEqual({ type: 'boolean' });
  });

  it('repairs a structured reply within the session when the model answers in prose', async () => {
    // Prose (claude nags once for the StructuredOutput tool, prose again), then the repair prompt gets a tool call.
    const { server, backend } = await setUp((req) =>
      req.lastUserText.startsWith('Your previous reply') ? { toolUse: { name: 'StructuredOutput', input: { holds: true } } } : { text: 'The verdict is yes.' },
    );
    const result = await sendStructured(backend, { history: [] }, 'Does it hold?', z.object({ holds: z.boolean() }));
    expect(result.ok && result.value).toEqual({ holds: true });
    expect(result.attempts.map((attempt) => attempt.raw)).toEqual(['The verdict is yes.', '{"holds":true}']);
    expect(result.attempts[0]?.error).toMatch(/no JSON value/);
    const repair = server.requests.find((req) => req.lastUserText.startsWith('Your previous reply'));
    expect(JSON.stringify(repair?.body.messages)).toContain('Does it hold?');
    expect(result.ok && result.reply.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('records a format failure and still returns where the session stands', async () => {
    const { backend } = await setUp(() => ({ text: 'only prose, ever' }));
    const result = await sendStructured(backend, { history: [] }, 'Does it hold?', z.object({ holds: z.boolean() }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.attempts).toHaveLength(2);
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const next = await backend.send({ history: [], sessionId: result.sessionId }, 'carry on');
    expect(next.sessionId).toBe(result.sessionId);
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

  it('cancels a running claude through the abort signal, leaving no process of it behind', async () => {
    const { server, home, backend } = await setUp(() => ({ text: 'late', delayMs: 30_000 }));
    const controller = new AbortController();
    const pending = backend.send({ history: [] }, 'hello', { signal: controller.signal });
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await processesWithHome(home.home)).not.toEqual([]);
    controller.abort();
    expect((await caught(pending)).kind).toBe('canceled');
    expect(await processesWithHome(home.home)).toEqual([]);
  });

  it('runs two sends on one session in turn, never at once', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const { backend } = await setUp(async (req) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      inFlight--;
      return { text: `turn ${req.lastUserText}` };
    });
    const first = await backend.send({ history: [] }, 'start');
    maxInFlight = 0;
    const replies = await Promise.all(['a', 'b'].map((prompt) => backend.send({ history: [], sessionId: first.sessionId }, prompt)));
    expect(replies.map((reply) => reply.text)).toEqual(['turn a', 'turn b']);
    expect(maxInFlight).toBe(1);
  });

  it('reports a missing binary as not-found', async () => {
    const backend = createBackend('claude', { binPath: '/nonexistent/claude', env: {} });
    expect((await caught(backend.send({ history: [] }, 'x'))).kind).toBe('not-found');
  });
});

describe('Claude backend pieces', () => {
  it('builds argv: model, resume instead of system prompt, no tools by default', () => {
    expect(buildClaudeArgs({ model: 'opus' }, { system: 's', history: [] })).toEqual(['-p', '--output-format', 'json', '--model', 'opus', '--system-prompt', 's', '--tools', '']);
    const id = '0b9f3c2e-6c1a-4f7e-9d2b-1a2b3c4d5e6f';
    expect(buildClaudeArgs({}, { system: 's', history: [], sessionId: id })).toEqual(['-p', '--output-format', 'json', '--resume', id, '--tools', '']);
    // A value that is not of its exact form never reaches claude's command line.
    expect(() => buildClaudeArgs({}, { history: [], sessionId: '--dangerously-skip-permissions' })).toThrow(/refusing to pass sessionId .*\(a UUID\)/);
    expect(() => buildClaudeArgs({ model: '--version' }, { history: [] })).toThrow(/refusing to pass model/);
    expect(buildClaudeArgs({ model: 'claude-sonnet-4-5[1m]' }, { history: [] })).toContain('claude-sonnet-4-5[1m]');
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
