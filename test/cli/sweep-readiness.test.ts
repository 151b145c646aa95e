import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { expandSweep, readRunResult } from '../../protocols/sweep/index.js';
import type { SweepMatrixInput } from '../../schemas/sweep.js';
import type { ScriptedChat } from '../doubles/scripted-chat.js';
import { startDialogicWorld } from '../protocols/sweep/worlds.js';
import { runParley } from './run-parley.js';

/** `parley sweep` checks its models before any run starts: the CLI from its sources as a child process. */
const work = await mkdtemp(join(tmpdir(), 'parley-sweep-ready-'));
afterAll(async () => rm(work, { recursive: true, force: true }));
const parley = (args: string[], env: NodeJS.ProcessEnv) => runParley(args, { cwd: work, env });


/** This environment without any key, login or parley setting: a machine where nothing is set up. */
async function bareEnv(): Promise<NodeJS.ProcessEnv> {
  const root = await mkdtemp(join(work, 'bare-'));
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/(_API_KEY|_TOKEN|_KEY)$|^(CODEX|CLAUDE|ANTHROPIC|OPENAI|PARLEY)_/.test(name)) env[name] = value;
  }
  for (const dir of ['home', 'codex', 'claude']) await mkdir(join(root, dir));
  return { ...env, HOME: join(root, 'home'), CODEX_HOME: join(root, 'codex'), CLAUDE_CONFIG_DIR: join(root, 'claude') };
}

let fileCount = 0;
async function sweepFile(matrix: SweepMatrixInput): Promise<string> {
  const path = join(work, `sweep-${(fileCount += 1)}.yaml`);
  await writeFile(path, stringify(matrix), 'utf8');
  return path;
}

let chat: ScriptedChat;
let env: NodeJS.ProcessEnv;
const local = (model: string) => `openai-compatible:${chat.baseUrl}#${model}`;
beforeAll(async () => {
  chat = await startDialogicWorld();
  env = await bareEnv();
});
afterAll(async () => chat?.close());

describe('parley sweep checks every model of its runs before any run starts', () => {
  it('a debate sweep naming openai: models without OPENAI_API_KEY exits 1, naming each once with its roles, and writes no folder', async () => {
    const path = await sweepFile({
      protocol: 'debate',
      base: { question: 'Ship today?', agents: [{ model: local('d1') }, { model: 'openai:gpt-4.1' }], rounds: 1 },
      matrix: {
        // Only a `set` override names the judge, and only in the second value.
        judge: [
          { label: 'none', set: { crit: null } },
          { label: 'gpt', set: { crit: { judge: 'openai:gpt-4o', variant: 'pillars' } } },
        ],
        rounds: [1, 2],
      },
    });
    const out = join(work, 'debate-results');
    const ran = await parley(['sweep', path, '--out', out, '--progress', 'plain'], env);
    expect(ran.code, ran.stderr).toBe(1);
    expect(ran.stderr).toMatch(/^parley sweep: 2 models cannot be used, so the sweep did not start:$/m);
    expect(ran.stderr).toMatch(/^ {2}agent 2 \(openai:gpt-4\.1\): .*set OPENAI_API_KEY/m);
    expect(ran.stderr).toMatch(/^ {2}CRIT judge \(openai:gpt-4o\): .*set OPENAI_API_KEY/m);
    // Four runs use agent 2: it is named once; the ready local model is not named.
    expect(ran.stderr.match(/openai:gpt-4\.1\)/g)).toHaveLength(1);
    expect(ran.stderr).not.toContain('#d1');
    expect(ran.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  });

  it('a model used in several roles across runs is one line naming every role', async () => {
    const path = await sweepFile({
      protocol: 'debate',
      base: { question: 'Ship today?', agents: [{ model: local('d1') }, { model: local('d2') }] },
      matrix: {
        agents: [
          [{ model: 'openai:gpt-4.1' }, { model: local('d2') }],
          [{ model: local('d1') }, { model: local('d2') }, { model: 'openai:gpt-4.1' }],
        ],
        rca: [null, { judge: 'openai:gpt-4.1' }],
      },
    });
    const out = join(work, 'roles-results');
    const ran = await parley(['sweep', path, '--out', out], env);
    expect(ran.code, ran.stderr).toBe(1);
    expect(ran.stderr).toMatch(/^parley sweep: a model cannot be used, so the sweep did not start:\n {2}agent 1, agent 3, RCA judge \(openai:gpt-4\.1\): .*OPENAI_API_KEY/m);
    expect(existsSync(out)).toBe(false);
  });

  describe('a dialogic sweep whose second pairing names an openai: model', () => {
    const matrix = (): SweepMatrixInput => ({
      protocol: 'dialogic',
      base: { maxCycles: 3, retryBaseMs: 1, temperature: 0.5, modelA: local('a1') },
      matrix: {
        pairing: [
          { label: 'p1', set: { modelB: local('b1') } },
          { label: 'p2', set: { modelB: 'openai:gpt-4.1' } },
        ],
      },
    });

    it('the whole sweep does not start', async () => {
      const out = join(work, 'dialogic-all');
      const ran = await parley(['sweep', await sweepFile(matrix()), '--out', out], env);
      expect(ran.code, ran.stderr).toBe(1);
      expect(ran.stderr).toMatch(/^ {2}model B \(openai:gpt-4\.1\): .*set OPENAI_API_KEY/m);
      expect(existsSync(out)).toBe(false);
    });

    it('--shard checks only its own runs: the shard without that model runs, the one with it does not start', async () => {
      const path = await sweepFile(matrix());
      const plans = expandSweep(matrix());
      expect(plans.map((plan) => plan.params.pairing)).toEqual(['p1', 'p2']);

      const ready = join(work, 'dialogic-shard-1');
      const first = await parley(['sweep', path, '--out', ready, '--shard', '1/2', '--progress', 'plain'], env);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).not.toMatch(/cannot be used/);
      expect(first.stdout).toMatch(/ran 1, already finished 0, failed 0/);
      expect((await readRunResult(ready, plans[0]!.id))?.status).toBe('ok');

      const blocked = join(work, 'dialogic-shard-2');
      const second = await parley(['sweep', path, '--out', blocked, '--shard', '2/2', '--progress', 'plain'], env);
      expect(second.code, second.stderr).toBe(1);
      expect(second.stderr).toMatch(/^parley sweep: a model cannot be used, so the sweep did not start:\n {2}model B \(openai:gpt-4\.1\): /m);
      expect(existsSync(blocked)).toBe(false);
    });
  });

  it('a sweep whose models are all ready runs every run', async () => {
    const input: SweepMatrixInput = {
      protocol: 'dialogic',
      base: { maxCycles: 3, retryBaseMs: 1, temperature: 0.5 },
      matrix: {
        pairing: [
          { label: 'p1', set: { modelA: local('a1'), modelB: local('b1') } },
          { label: 'p2', set: { modelA: local('a2'), modelB: local('b2') } },
        ],
      },
    };
    const out = join(work, 'ready');
    const ran = await parley(['sweep', await sweepFile(input), '--out', out, '--progress', 'plain'], env);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/ran 2, already finished 0, failed 0/);
    const plans = expandSweep(input);
    expect(plans).toHaveLength(2);
    for (const plan of plans) expect((await readRunResult(out, plan.id))?.status).toBe('ok');
  });
});
