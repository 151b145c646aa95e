import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { lockRunFolder } from '../../protocols/run-in-folder.js';
import type { RunProtocol } from '../../protocols/run-protocol.js';
import { startHarness, type Harness } from './harness.js';

const steps: RunProtocol<{ steps: number }, { counted: number }> = {
  name: 'dialogic',
  configSchema: z.object({ steps: z.number().int().min(1) }),
  async run(config, ctx) {
    const done = (await ctx.audit.readAll()).filter((r) => r.type === 'step').length;
    for (let step = done + 1; step <= config.steps; step++) await ctx.audit.append({ type: 'step', step });
    return { counted: config.steps - done };
  },
  analyze: () => ({ measures: {}, table: '' }),
};

let harness: Harness;
afterEach(async () => harness?.close());

describe('run_start and the run folder lock', () => {
  it('refuses at once to start a run whose folder another process is running, and starts it once free', async () => {
    const home = await mkdtemp(join(tmpdir(), 'parley-test-'));
    harness = await startHarness({ home, protocols: { dialogic: steps } });
    // What another parley process running run r1 holds.
    const elsewhere = await lockRunFolder(join(home, 'runs', 'r1'));
    expect(await harness.refused('run_start', { protocol: 'dialogic', config: { steps: 2 }, runId: 'r1' })).toMatch(/run folder .*r1 is in use by another run \(pid \d+/);
    await elsewhere.release();
    const { run } = await harness.ok('run_start', { protocol: 'dialogic', config: { steps: 2 }, runId: 'r1' });
    await harness.ok('run_status', { runId: run.runId, waitSeconds: 5 });
    expect((await harness.ok('run_result', { runId: 'r1' })).output).toEqual({ counted: 2 });
  });
});
