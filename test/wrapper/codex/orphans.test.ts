import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BackendError } from '../../../wrapper/backend.js';
import { runCodex } from '../../../wrapper/codex/index.js';
import { killAll } from '../../../wrapper/codex/process-tree.js';
import { CODEX_BIN, processesRunning, processesUsing, startRig, until } from './live-helpers.js';

const REPO = join(import.meta.dirname, '..', '..', '..');
const ENTRY = join(REPO, 'cli', 'main.ts');
const started: ChildProcess[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/**
 * A real `parley <command>` with two codex agents whose model answers with a long tool command, so
 * that when the signal comes codex and its sandboxed command are both running.
 */
async function startParley(command: 'debate' | 'dialogic', marker: string) {
  const rig = await startRig(() => ({ toolCall: { command: ['sleep', marker] } }));
  const work = await mkdtemp(join(tmpdir(), 'parley-orphans-'));
  folders.push(work);
  const args =
    command === 'debate'
      ? ['debate', 'Ship today?', '--agent', 'codex:fake-model', '--agent', 'codex:fake-model', '--rounds', '1', '--out', join(work, 'debate.json')]
      : ['dialogic', '--model-a', 'codex:fake-model', '--model-b', 'codex:fake-model', '--max-cycles', '1', '--out', join(work, 'run.json')];
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
    // tsx resolves from the working directory; codex itself runs in an empty folder of parley's choosing.
    cwd: REPO,
    env: { ...rig.env, PARLEY_CODEX_PATH: CODEX_BIN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await until(() => processesRunning(`sleep ${marker}`).length > 0, `codex to run its tool command (parley stderr: ${stderr})`, 60_000);
  return { child, rig, stderr: () => stderr };
}

const NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

describe('no codex process outlives parley', () => {
  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
    it(`${signal} to parley debate stops it with 128+n and leaves no codex process or sandboxed command`, { timeout: 90_000 }, async () => {
      const marker = `${NUMBERS[signal]}7.${process.pid}`;
      const { child, rig, stderr } = await startParley('debate', marker);
      child.kill(signal);
      const result = await exited(child);
      expect(result, stderr()).toEqual({ code: 128 + NUMBERS[signal]!, signal: null });
      expect(stderr()).toMatch(new RegExp(`interrupted by ${signal}`));
      await until(() => processesUsing(rig.codexHome).length === 0 && processesRunning(`sleep ${marker}`).length === 0, 'codex and its command to exit', 10_000);
    });
  }

  it('SIGTERM to parley dialogic leaves no codex process', { timeout: 90_000 }, async () => {
    const marker = `31.${process.pid}`;
    const { child, rig, stderr } = await startParley('dialogic', marker);
    child.kill('SIGTERM');
    expect(await exited(child), stderr()).toEqual({ code: 143, signal: null });
    await until(() => processesUsing(rig.codexHome).length === 0 && processesRunning(`sleep ${marker}`).length === 0, 'codex and its command to exit', 10_000);
  });

  // What `timeout -k`, Slurm and an impatient user send: the second signal ends parley at once,
  // before its own cancel has finished, so the watchdog has to end codex and its command alone.
  const SEQUENCES = [
    { second: 'SIGTERM', first: 'SIGTERM', exit: { code: 143, signal: null } },
    { second: 'SIGTERM', first: 'SIGINT', exit: { code: 143, signal: null } },
    { second: 'SIGKILL', first: 'SIGTERM', exit: { code: null, signal: 'SIGKILL' } },
  ] as const;
  for (const [index, { first, second, exit }] of SEQUENCES.entries()) {
    it(`${first} then ${second} 50 ms later to parley debate leaves no codex process or sandboxed command`, { timeout: 90_000 }, async () => {
      const marker = `5${index}.${process.pid}`;
      const { child, rig, stderr } = await startParley('debate', marker);
      child.kill(first);
      await new Promise((r) => setTimeout(r, 50));
      child.kill(second);
      expect(await exited(child), stderr()).toEqual(exit);
      await until(() => processesUsing(rig.codexHome).length === 0 && processesRunning(`sleep ${marker}`).length === 0, 'codex and its command to exit', 10_000).catch(() => undefined);
      const left = [...new Set([...processesUsing(rig.codexHome), ...processesRunning(`sleep ${marker}`)])];
      killAll(left, 'SIGKILL');
      expect(left).toEqual([]);
    });
  }

  // PARLEY_ORPHAN_KILLS=20 repeats it: the figure "N SIGKILLs of parley mid-call, 0 codex processes left".
  const kills = Number(process.env.PARLEY_ORPHAN_KILLS ?? 1);
  it(`SIGKILL to parley itself (x${kills}): codex and its command die with it`, { timeout: 30_000 + kills * 60_000 }, async () => {
    const left: number[] = [];
    for (let round = 0; round < kills; round++) {
      const marker = `99.${process.pid}${round}`;
      const { child, rig } = await startParley('debate', marker);
      child.kill('SIGKILL');
      await exited(child);
      const gone = () => processesUsing(rig.codexHome).length === 0 && processesRunning(`sleep ${marker}`).length === 0;
      await until(gone, 'codex and its command to exit', 10_000).catch(() => undefined);
      left.push(processesUsing(rig.codexHome).length + processesRunning(`sleep ${marker}`).length);
    }
    expect(left).toEqual(Array.from({ length: kills }, () => 0));
  });
});

describe('the codex watchdog', () => {
  it('a call that ends normally leaves nothing its login shell started (a slow .bashrc)', { timeout: 60_000 }, async () => {
    const marker = `61.${process.pid}`;
    const rig = await startRig(() => ({ text: 'done' }));
    const home = await mkdtemp(join(tmpdir(), 'parley-orphans-home-'));
    folders.push(home);
    // Codex snapshots the user's shell with `bash -lc`, which sources ~/.bashrc; it kills that shell when it exits, not its children.
    await writeFile(join(home, '.bashrc'), `sleep ${marker}\n`);
    const result = await runCodex({ prompt: 'x', codexPath: CODEX_BIN, env: { ...rig.env, HOME: home }, timeoutMs: 30_000 });
    expect(result.answer).toBe('done');
    await until(() => processesRunning(`sleep ${marker}`).length === 0, 'the login shell\'s command to be gone', 5_000).catch(() => undefined);
    const left = [...new Set([...processesUsing(rig.codexHome), ...processesRunning(`sleep ${marker}`)])];
    killAll(left, 'SIGKILL');
    expect(left).toEqual([]);
  });

  it('a codex it cannot start is still not-found, with the install hint', async () => {
    const work = await mkdtemp(join(tmpdir(), 'parley-orphans-'));
    folders.push(work);
    const broken = join(work, 'codex');
    await writeFile(broken, '#!/nonexistent/interpreter\n');
    await chmod(broken, 0o755);
    const error = await runCodex({ prompt: 'x', codexPath: broken, timeoutMs: 10_000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ kind: 'not-found', message: expect.stringMatching(/could not start codex .*ENOENT.*npm install @openai\/codex/) });
  });
});
