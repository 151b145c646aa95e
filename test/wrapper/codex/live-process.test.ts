import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BackendError } from '../../../wrapper/backend.js';
import { resolveCodexPath, runCodex, type CodexCallOptions } from '../../../wrapper/codex/index.js';
import { CODEX_BIN, processesUsing, startRig, until, type LiveRig } from './live-helpers.js';

const call = (rig: LiveRig, opts: Omit<CodexCallOptions, 'codexPath' | 'env'>) =>
  runCodex({ codexPath: CODEX_BIN, env: rig.env, cwd: rig.workDir, timeoutMs: 20_000, ...opts });

async function failure(promise: Promise<unknown>): Promise<BackendError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof BackendError)) throw new Error(`expected a BackendError, got ${String(error)}`);
  return error;
}

function processesRunning(commandLine: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\u0000').join(' ').includes(commandLine);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('codex binary resolution', () => {
  it('missing binary -> not-found with the install command (empty PATH, or a path that does not exist)', { timeout: 120_000 }, async () => {
    const onPath = await failure(runCodex({ prompt: 'x', codexPath: 'codex', env: { PATH: '' } }));
    expect(onPath.kind).toBe('not-found');
    expect(onPath.message).toContain('npm install @openai/codex');
    expect((await failure(runCodex({ prompt: 'x', codexPath: '/nonexistent/bin/codex' }))).kind).toBe('not-found');
    expect(() => resolveCodexPath({ env: { PARLEY_CODEX_PATH: '/nonexistent/codex' } })).toThrow(expect.objectContaining({ kind: 'not-found' }));
  });

  it('finds codex on PATH, else in the project node_modules; PARLEY_CODEX_PATH wins', () => {
    expect(resolveCodexPath({ env: { PATH: dirname(CODEX_BIN) } })).toBe(CODEX_BIN);
    expect(resolveCodexPath({ env: { PATH: '' } })).toMatch(/node_modules\/\.bin\/codex$/);
    expect(resolveCodexPath({ env: { PATH: '', PARLEY_CODEX_PATH: CODEX_BIN } })).toBe(CODEX_BIN);
  });

  it('the npm launcher runs even when PATH has no node', { timeout: 120_000 }, async () => {
    const rig = await startRig([{ text: 'ran without node on PATH' }]);
    const result = await runCodex({ prompt: 'x', env: { ...rig.env, PATH: '' }, cwd: rig.workDir, timeoutMs: 20_000 });
    expect(result.answer).toBe('ran without node on PATH');
  });
});

describe('codex process control', () => {
  it('cancel while the model is thinking: canceled, and no process of that CODEX_HOME remains', { timeout: 120_000 }, async () => {
    const rig = await startRig([{ text: 'too late', delayMs: 60_000 }]);
    const controller = new AbortController();
    const pending = call(rig, { prompt: 'x', signal: controller.signal });
    await until(() => rig.server.requests.length > 0, 'the request to reach the server');
    expect(processesUsing(rig.codexHome).length).toBeGreaterThan(0);
    controller.abort();
    expect((await failure(pending)).kind).toBe('canceled');
    await until(() => processesUsing(rig.codexHome).length === 0, 'every codex process to exit');
  });

  it('cancel during a tool command: the command is killed too', { timeout: 120_000 }, async () => {
    const marker = `sleep 47.${process.pid}`;
    const rig = await startRig([{ toolCall: { command: marker.split(' ') } }, { text: 'never' }]);
    const controller = new AbortController();
    const pending = call(rig, { prompt: 'x', signal: controller.signal });
    await until(() => processesRunning(marker).length > 0, 'the tool command to start');
    controller.abort();
    expect((await failure(pending)).kind).toBe('canceled');
    await until(() => processesRunning(marker).length === 0 && processesUsing(rig.codexHome).length === 0, 'the command and codex to exit');
  });

  it('an already aborted signal never starts codex', { timeout: 120_000 }, async () => {
    const rig = await startRig([{ text: 'unused' }]);
    const error = await failure(call(rig, { prompt: 'x', signal: AbortSignal.abort() }));
    expect(error.kind).toBe('canceled');
    expect(rig.server.requests).toHaveLength(0);
  });
});

describe('codex session concurrency', () => {
  it('two resumes of one session at once are serialized: both succeed with their own turn usage', { timeout: 120_000 }, async () => {
    const rig = await startRig(({ index }) => ({ text: `answer ${index}`, delayMs: index === 0 ? 0 : 500, usage: { input: 100 * (index + 1), output: 10 } }));
    const first = await call(rig, { prompt: 'start' });
    const [a, b] = await Promise.all([
      call(rig, { prompt: 'resume a', sessionId: first.sessionId }),
      call(rig, { prompt: 'resume b', sessionId: first.sessionId }),
    ]);
    expect([a.sessionId, b.sessionId]).toEqual([first.sessionId, first.sessionId]);
    expect([a.answer, b.answer].sort()).toEqual(['answer 1', 'answer 2']);
    expect(a.usage.inputTokens + b.usage.inputTokens).toBe(200 + 300);
    expect(b.cumulativeUsage?.inputTokens).toBe(600);
  });

  it('a resume racing another process on the same session -> session-busy', { timeout: 120_000 }, async () => {
    let released!: () => void;
    const raced = new Promise<void>((resolve) => (released = resolve));
    // The holder's answer waits for the racer's failure, however long a loaded machine takes to start it.
    const rig = await startRig(({ index }) => ({ text: `answer ${index}`, ...(index === 0 ? {} : { until: raced }) }));
    const first = await call(rig, { prompt: 'start' });
    // A second spelling of the same CODEX_HOME defeats parley's in-process queue, like another process would.
    const otherProcessEnv = { ...rig.env, CODEX_HOME: `${rig.codexHome}/` };
    const holder = call(rig, { prompt: 'holder', sessionId: first.sessionId });
    await until(() => rig.server.requests.length > 1, 'the first resume to reach the server');
    const racer = await failure(runCodex({ codexPath: CODEX_BIN, env: otherProcessEnv, prompt: 'racer', sessionId: first.sessionId, timeoutMs: 20_000 }).finally(released));
    expect(racer.kind).toBe('session-busy');
    expect((await holder).answer).toBe('answer 1');
  });
});
