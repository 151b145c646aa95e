import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerDialogicCommand } from '../../../cli/dialogic.js';
import { DialogicRun } from '../../../schemas/dialogic.js';
import { startWorld, type World } from './world.js';
import { runCli } from '../../cli/cli-capture.js';

let world: World | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
  await world?.chat.close();
});

const runDialogicCli = (args: string[]) => runCli(registerDialogicCommand, args);

describe('parley dialogic CLI', () => {
  it('runs a dialogic run to a file with plain progress lines, then analyzes and exports it', async () => {
    world = await startWorld({
      generations: {
        'model-a': [{ terms: ['K one', 'RA two', 'D three', 'K four'] }, { exhausted: true, statement: 'done' }],
        'model-b': [{ terms: ['K five', 'RC six', 'K seven', 'K eight'] }, { exhausted: true, statement: 'done' }],
      },
    });
    const out = join(await mkdtemp(join(tmpdir(), 'parley-dialogic-cli-')), 'run.json');
    const run = await runDialogicCli([
      'dialogic', '--model-a', world.specA, '--model-b', world.specB, '--personas', 'swapped', '--temperature', '1', '--out', out,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/7 agreed, 1 dropped, stopped by bilateral_exhaustion/);
    expect(run.stderr.split('\n').filter((line) => line.startsWith('[')).length).toBeGreaterThan(3);
    expect(run.stderr).not.toContain('\r');
    const file = DialogicRun.parse(JSON.parse(await readFile(out, 'utf8')));
    expect(file.model_a.persona).toBe('heideggerian');
    expect(file.temperature).toBe(1);
    expect(world.chat.requests.every((r) => r.body.temperature === 1)).toBe(true);

    const table = await runDialogicCli(['dialogic', 'analyze', out]);
    expect(table.stdout).toMatch(/terms proposed \/ submitted \/ dropped\s+8 \/ 7 \/ 1/);
    expect(table.stdout).toMatch(/edit distance first -> final text\s+mean/);
    const json = await runDialogicCli(['dialogic', 'analyze', out, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ proposed: 8, submitted: 7, drops: { by_verdict: 1 } });
    const exported = await runDialogicCli(['dialogic', 'export', out]);
    expect(JSON.parse(exported.stdout).map((t: { name: string }) => t.name)).toContain('RA two+');

    // The same --out with other personas is another run: refused before any call, naming the key.
    const requests = world.chat.requests.length;
    const other = await runDialogicCli(['dialogic', '--model-a', world.specA, '--model-b', world.specB, '--temperature', '1', '--out', out]);
    expect(other.exitCode).toBe(1);
    expect(other.stderr).toMatch(/personas: "swapped" -> "standard"\); nothing was called or changed\. To start a fresh run, give another --out, or remove that folder first/);
    expect(world.chat.requests.length).toBe(requests);
  });

  it('says what is missing instead of starting without both models', async () => {
    const result = await runDialogicCli(['dialogic', '--model-a', 'openai:gpt-4.1']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/--model-b/);
  });
});
