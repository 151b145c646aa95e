import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BackendError } from '../../../wrapper/backend.js';
import { runCodex } from '../../../wrapper/codex/index.js';
import { killAll } from '../../../wrapper/codex/process-tree.js';
import { makeCodexHome } from '../../doubles/codex-home.js';
import { writeEscapingCodex } from '../../doubles/escaping-codex.js';
import { processesRunning, until } from './live-helpers.js';

const ENTRY = resolve('dist/cli/main.js');
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** What is still running with the marker a moment after the call ended; killed, so no test leaves it. */
async function leftWith(marker: string): Promise<number[]> {
  await until(() => processesRunning(marker).length === 0, 'the escaping helper to be ended', 5_000).catch(() => undefined);
  const left = processesRunning(marker);
  killAll(left, 'SIGKILL');
  return left;
}

async function escapingCodex(name: string, answerAfterMs?: number) {
  const dir = await mkdtemp(join(tmpdir(), 'parley-escaping-'));
  folders.push(dir);
  const marker = `parley-escaping-helper-${name}-${process.pid}`;
  const codexPath = await writeEscapingCodex(dir, { marker, ...(answerAfterMs === undefined ? {} : { answerAfterMs }) });
  return { dir, marker, codexPath };
}

// A helper Codex starts in a session of its own, with no environment and deaf to SIGTERM, whose parent
// ends with codex (Codex's bwrap file-system helpers): the watchdog has seen it below codex while codex
// ran, and ends it whichever way the call ends.
describe('a helper codex started in a session of its own, orphaned when codex ends', () => {
  it('is ended after a completed call', { timeout: 60_000 }, async () => {
    const { marker, codexPath, dir } = await escapingCodex('done', 1_500);
    const result = await runCodex({ prompt: 'x', codexPath, cwd: dir, timeoutMs: 30_000 });
    expect(result.answer).toBe('done');
    expect(await leftWith(marker)).toEqual([]);
  });

  it('is ended after a cancel', { timeout: 60_000 }, async () => {
    const { marker, codexPath, dir } = await escapingCodex('cancel');
    const controller = new AbortController();
    const call = runCodex({ prompt: 'x', codexPath, cwd: dir, timeoutMs: 30_000, signal: controller.signal }).catch((error: unknown) => error);
    await until(() => processesRunning(marker).length > 0, 'the helper to start', 20_000);
    await new Promise((r) => setTimeout(r, 1_000));
    controller.abort();
    expect(await call).toMatchObject({ kind: 'canceled' });
    expect(await leftWith(marker)).toEqual([]);
  });

  it('is ended after a timeout', { timeout: 60_000 }, async () => {
    const { marker, codexPath, dir } = await escapingCodex('timeout');
    const error = await runCodex({ prompt: 'x', codexPath, cwd: dir, timeoutMs: 3_000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ kind: 'timeout' });
    expect(await leftWith(marker)).toEqual([]);
  });

  it('is ended when the parley server is sent SIGTERM mid-consult', { timeout: 90_000 }, async () => {
    const { marker, codexPath, dir } = await escapingCodex('server');
    // A provider of its own in config.toml: no `codex login status` run by the readiness check.
    const home = await makeCodexHome('http://127.0.0.1:9/v1');
    const stateDir = join(dir, 'state');
    const env = { ...(home.env as Record<string, string>), PARLEY_STATE_DIR: stateDir, PARLEY_CODEX_PATH: codexPath, PARLEY_CONSULT_CWD: 'empty' };
    const transport = new StdioClientTransport({ command: process.execPath, args: [ENTRY], env, cwd: dir, stderr: 'pipe' });
    const client = new Client({ name: 'parley-escaping', version: '0' });
    try {
      await client.connect(transport);
      await client.callTool({ name: 'delib_start', arguments: { question: 'Ship today?', consult: { waitSeconds: 0 } } });
      await until(() => processesRunning(marker).length > 0, 'the helper to start', 30_000);
      await new Promise((r) => setTimeout(r, 1_000));
      const server = transport.pid!;
      process.kill(server, 'SIGTERM');
      await until(() => processesRunning(`${ENTRY}`).every((pid) => pid !== server), 'the server to exit', 20_000);
      expect(await leftWith(marker)).toEqual([]);
    } finally {
      await client.close().catch(() => undefined);
      await home.cleanup();
    }
  });
});
