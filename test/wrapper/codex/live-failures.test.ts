import { describe, expect, it } from 'vitest';
import { BackendError } from '../../../wrapper/backend.js';
import { runCodex, type CodexCallOptions } from '../../../wrapper/codex/index.js';
import { startScriptedResponses } from '../../doubles/scripted-responses.js';
import { makeCodexHome } from '../../doubles/codex-home.js';
import { closedPort } from '../../doubles/http-helpers.js';
import { CODEX_BIN, processesUsing, startRig, until, type LiveRig } from './live-helpers.js';

const call = (rig: LiveRig, opts: Omit<CodexCallOptions, 'codexPath' | 'env'>) =>
  runCodex({ codexPath: CODEX_BIN, env: rig.env, cwd: rig.workDir, timeoutMs: 20_000, ...opts });

async function failure(promise: Promise<unknown>): Promise<BackendError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof BackendError)) throw new Error(`expected a BackendError, got ${String(error)}`);
  return error;
}

describe('runCodex failures, each a distinct BackendError (real binary, scripted server)', () => {
  it('401 -> turn-failed with the status', { timeout: 120_000 }, async () => {
    const rig = await startRig([{ status: 401, errorBody: 'Incorrect API key provided' }]);
    const error = await failure(call(rig, { prompt: 'x' }));
    expect(error.kind).toBe('turn-failed');
    expect(error.detail.status).toBe(401);
    expect(error.message).toContain('Incorrect API key provided');
  });

  it('500 -> turn-failed in --json, exit with the ERROR line and a bounded stderr tail in plain mode', { timeout: 120_000 }, async () => {
    const rig = await startRig(() => ({ status: 500, errorBody: 'scripted outage' }));
    expect((await failure(call(rig, { prompt: 'x' }))).kind).toBe('turn-failed');
    const plain = await failure(call(rig, { prompt: 'x', mode: 'plain' }));
    expect(plain.kind).toBe('exit');
    expect(plain.detail.exitCode).toBe(1);
    expect(plain.detail.stderrTail?.length).toBeLessThanOrEqual(2000);
    expect(plain.detail.stderrTail).toContain('ERROR:');
  });

  it('stream cut before response.completed -> turn-failed naming the disconnect', { timeout: 120_000 }, async () => {
    const rig = await startRig([{ text: 'half an answer', cutStream: true }]);
    const error = await failure(call(rig, { prompt: 'x' }));
    expect(error.kind).toBe('turn-failed');
    expect(error.message).toContain('stream disconnected before completion');
  });

  it('rc 0 with no answer -> empty-answer, not an answer', { timeout: 120_000 }, async () => {
    const rig = await startRig([{}]);
    expect((await failure(call(rig, { prompt: 'x' }))).kind).toBe('empty-answer');
  });

  it('unreachable server -> our own timeout kills the reconnect loop', { timeout: 120_000 }, async () => {
    const closed = await startScriptedResponses([]);
    const deadUrl = closed.baseUrl;
    await closed.close();
    const rig = await startRig([]);
    const error = await failure(
      call(rig, { prompt: 'x', timeoutMs: 2_000, config: { 'model_providers.fake.base_url': JSON.stringify(deadUrl) } }),
    );
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('2000 ms');
    expect(rig.server.requests).toHaveLength(0);
    await until(() => processesUsing(rig.codexHome).length === 0, 'codex to exit after the timeout');
  });

  // Codex waits for a provider it cannot reach for as long as it is let (10 minutes, parley's timeout):
  // parley reads its reconnect notices and ends the turn itself, with the cause and the fix.
  it('a provider nothing listens at, or whose host does not resolve -> unreachable, naming the URL, the cause and the fix; nothing left running', { timeout: 180_000 }, async () => {
    const port = await closedPort();
    const refused = await startRig([]);
    const nowhere = await makeCodexHome('http://parley-nowhere.invalid/v1');
    try {
      const [byOverride, byConfig] = await Promise.all([
        failure(call(refused, { prompt: 'x', timeoutMs: 120_000, config: { 'model_providers.fake.base_url': JSON.stringify(`http://127.0.0.1:${port}/v1`) } })),
        failure(runCodex({ codexPath: CODEX_BIN, env: nowhere.env, cwd: nowhere.workDir, prompt: 'x', timeoutMs: 120_000 })),
      ]);
      expect(byOverride.kind).toBe('unreachable');
      expect(byOverride.message).toMatch(new RegExp(`^codex cannot reach its model provider fake \\(http://127\\.0\\.0\\.1:${port}/v1: connection refused\\); Codex said: Reconnecting\\.\\.\\. waiting for network`));
      expect(byOverride.message).toContain(`start the server at http://127.0.0.1:${port}/v1, or correct base_url of [model_providers.fake] in ${refused.codexHome}/config.toml; \`parley doctor\` checks it`);
      expect(byConfig.kind).toBe('unreachable');
      expect(byConfig.message).toContain('(http://parley-nowhere.invalid/v1: host name not found)');
      expect(refused.server.requests).toHaveLength(0);
      for (const home of [refused.codexHome, nowhere.codexHome]) await until(() => processesUsing(home).length === 0, 'codex to exit');
    } finally {
      await nowhere.cleanup();
    }
  });

  it('resume of an unknown uuid -> unknown-session; a session "id" that is not a uuid never reaches codex', { timeout: 120_000 }, async () => {
    const rig = await startRig(() => ({ text: 'a brand new session' }));
    const unknown = await failure(call(rig, { prompt: 'x', sessionId: '00000000-0000-0000-0000-000000000000' }));
    expect(unknown.kind).toBe('unknown-session');
    const requests = rig.server.requests.length;
    for (const sessionId of ['no-such-name', '--dangerously-bypass-approvals-and-sandbox']) {
      const refused = await failure(call(rig, { prompt: 'x', sessionId }));
      expect(refused.kind).toBe('bad-spec');
      expect(refused.message).toContain('Codex thread id');
    }
    expect(rig.server.requests.length).toBe(requests);
  });
});
