import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordedCall, replayableCalls } from '../../protocols/recorded-call.js';
import { runInFolder, runFolderFiles } from '../../protocols/run-in-folder.js';
import type { RunContext } from '../../protocols/run-protocol.js';
import { UserFacingError } from '../../schemas/user-facing-error.js';
import type { Backend, ModelReply } from '../../wrapper/backend.js';

const Step = z.object({ n: z.number() });
const usage = { inputTokens: 100, cachedInputTokens: 0, outputTokens: 10, reasoningTokens: 0 };

/** A backend answering `{"n": <call number>}`, counting what it was sent. */
function counter(): Backend & { prompts: string[] } {
  const backend = {
    spec: 'openai:gpt-4.1',
    prompts: [] as string[],
    async send(_conversation: unknown, prompt: string): Promise<ModelReply> {
      backend.prompts.push(prompt);
      return { text: JSON.stringify({ n: backend.prompts.length }), usage, model: 'gpt-4.1', latencyMs: 1 };
    },
  };
  return backend;
}

/** A protocol of `steps` recorded calls; it crashes before step `crashAt` when given. */
function protocol(steps: number, options: { crashAt?: number; gate?: Promise<void> } = {}) {
  return async (ctx: RunContext) => {
    await options.gate;
    const replay = replayableCalls(await ctx.audit.readAll());
    const values: number[] = [];
    for (let step = 1; step <= steps; step += 1) {
      if (step === options.crashAt) throw new Error('simulated crash');
      const outcome = await recordedCall({
        step: `s${step}`,
        audit: ctx.audit,
        replay,
        backend: ctx.backendFor('openai:gpt-4.1'),
        conversation: { history: [] },
        prompt: `step ${step}`,
        schema: Step,
        schemaName: 'step',
        options: {},
        signal: ctx.signal,
      });
      if (outcome.status !== 'ok') throw new Error(outcome.error);
      values.push(outcome.value.n);
    }
    return { runId: ctx.runId, values };
  };
}

async function folder(): Promise<{ dir: string; outPath: string }> {
  const root = await mkdtemp(join(tmpdir(), 'parley-folder-'));
  return { dir: join(root, 'out.run'), outPath: join(root, 'out.json') };
}

/** A pid no process has any more: a child that already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (child.pid === undefined) throw new Error('could not start a child process');
  return child.pid;
}

describe('runInFolder', () => {
  it('resumes after a crash: recorded calls are replayed, the output is written once, at the end', async () => {
    const paths = await folder();
    const backend = counter();
    const common = { ...paths, runId: 'r1', backendFor: () => backend, prices: { 'gpt-4.1': { input: 1, output: 10 } } };

    const crashed = await runInFolder({ ...common, run: protocol(4, { crashAt: 3 }) });
    expect(crashed).toMatchObject({ ok: false, error: new Error('simulated crash') });
    expect(crashed.spend.byBackend['openai:gpt-4.1']?.calls).toBe(2);
    expect(existsSync(paths.outPath)).toBe(false);
    // A process killed with -9 leaves its lock behind: a dead holder's lock is broken on resume.
    await mkdir(runFolderFiles(paths.dir).lock);
    await writeFile(join(runFolderFiles(paths.dir).lock, 'abc'), JSON.stringify({ pid: deadPid(), host: hostname(), token: 'abc', at: Date.now() }));

    let outputs = 0;
    const resumed = await runInFolder({
      ...common,
      run: protocol(4),
      output: (result) => {
        outputs += 1;
        return result.values;
      },
    });
    expect(resumed.ok && resumed.result).toEqual({ runId: 'r1', values: [1, 2, 3, 4] });
    expect(backend.prompts).toEqual(['step 1', 'step 2', 'step 3', 'step 4']);
    expect(outputs).toBe(1);
    expect(JSON.parse(await readFile(paths.outPath, 'utf8'))).toEqual([1, 2, 3, 4]);
    // Spend counts every call of every attempt of the run, priced.
    expect(resumed.spend.byBackend['openai:gpt-4.1']).toMatchObject({ calls: 4, usage: { inputTokens: 400, outputTokens: 40 } });
    expect(resumed.spend.costUsd).toBeCloseTo((400 + 400) / 1_000_000, 12);
    expect(await readdir(paths.dir)).toEqual(['audit.jsonl']);
  });

  it('refuses a second run on a folder in use, with a clear error, and frees the folder when the first ends', async () => {
    const paths = await folder();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const first = runInFolder({ ...paths, runId: 'r1', backendFor: counter, run: protocol(1, { gate }) });
    await expect.poll(() => existsSync(runFolderFiles(paths.dir).lock)).toBe(true);

    const second = await runInFolder({ ...paths, runId: 'r1', backendFor: counter, run: protocol(1) }).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(UserFacingError);
    expect(second).toMatchObject({ code: 'run-folder-busy' });
    expect((second as Error).message).toContain(`the run folder ${paths.dir} is in use by another run (pid ${process.pid} on ${hostname()})`);

    open();
    expect((await first).ok).toBe(true);
    expect((await runInFolder({ ...paths, runId: 'r1', backendFor: counter, run: protocol(1) })).ok).toBe(true);
  });
});
