import { afterEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { RunProtocol } from '../../protocols/run-protocol.js';
import { startHarness, type Harness } from './harness.js';

// A protocol made for testing the run manager itself: counts to `steps`, one audit record per step,
// skipping steps already in the audit log (the resumability contract real protocols follow).
const counting: RunProtocol<{ steps: number; delayMs: number }, { counted: number; replayed: number }> = {
  name: 'dialogic',
  configSchema: z.object({ steps: z.number().int().min(1), delayMs: z.number().int().min(0).default(0) }),
  async run(config, ctx) {
    const done = new Set((await ctx.audit.readAll()).filter((r) => r.type === 'step').map((r) => r.step as number));
    let counted = 0;
    for (let step = 1; step <= config.steps; step++) {
      if (ctx.signal.aborted) throw new Error('aborted');
      if (!done.has(step)) {
        await new Promise((resolve) => setTimeout(resolve, config.delayMs));
        await ctx.audit.append({ type: 'step', step });
        counted++;
      }
      ctx.progress({ done: step, total: config.steps, message: `step ${step}` });
    }
    return { counted, replayed: done.size };
  },
  analyze(output) {
    const counted = (output as { counted: number }).counted;
    return { measures: { counted }, table: `counted ${counted}` };
  },
};

let harness: Harness;
afterEach(async () => harness?.close());

describe('run tools', () => {
  it('starts a run that returns at once, waits on it with progress, and returns its result', async () => {
    harness = await startHarness({ protocols: { dialogic: counting } });
    const { run } = await harness.ok('run_start', { protocol: 'dialogic', config: { steps: 3, delayMs: 30 } });
    expect(run.status).toBe('running');
    const progress: number[] = [];
    const waited = await harness.client.callTool(
      { name: 'run_status', arguments: { runId: run.runId, waitSeconds: 5 } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect((waited.structuredContent as any).run.status).toBe('succeeded');
    expect(progress.length).toBeGreaterThan(0);
    const result = await harness.ok('run_result', { runId: run.runId });
    expect(result.output).toEqual({ counted: 3, replayed: 0 });
    expect(result.measures).toEqual({ counted: 3 });
    const onDisk = JSON.parse(await readFile(run.files.output, 'utf8'));
    expect(onDisk).toEqual({ counted: 3, replayed: 0 });
    const { runs } = await harness.ok('run_list', {});
    expect(runs.map((r: any) => r.runId)).toEqual([run.runId]);
  });

  it('cancels a run and resumes it later without redoing completed steps', async () => {
    harness = await startHarness({ protocols: { dialogic: counting } });
    const { run } = await harness.ok('run_start', { protocol: 'dialogic', config: { steps: 40, delayMs: 20 } });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const canceled = await harness.ok('run_cancel', { runId: run.runId });
    expect(canceled.run.status).toBe('canceled');
    expect(await harness.refused('run_result', { runId: run.runId })).toMatch(/canceled.*run_start/);
    const audit = (await readFile(run.files.audit, 'utf8')).trim().split('\n').length;
    expect(audit).toBeGreaterThan(0);
    expect(audit).toBeLessThan(40);
    await harness.ok('run_start', { protocol: 'dialogic', runId: run.runId });
    await harness.ok('run_status', { runId: run.runId, waitSeconds: 10 });
    const result = await harness.ok('run_result', { runId: run.runId });
    expect(result.output).toEqual({ counted: 40 - audit, replayed: audit });
  });

  it('refuses bad input with an actionable sentence', async () => {
    harness = await startHarness({ protocols: { dialogic: counting } });
    expect(await harness.refused('run_start', { protocol: 'dialogic', config: { steps: 0 } })).toMatch(/invalid dialogic config: steps/);
    expect(await harness.refused('run_start', { protocol: 'debate', config: {} })).toMatch(/unknown protocol "debate"/);
    expect(await harness.refused('run_status', { runId: 'nope' })).toMatch(/no run "nope".*run_list/);
    expect(await harness.refused('run_status', { runId: '../etc' })).toMatch(/invalid runId/);
    expect(await harness.refused('run_result', {})).toMatch(/give runId, or path/);
    expect(await harness.refused('run_start', { protocol: 'nonsense' })).toMatch(/Invalid arguments/);
  });
});
