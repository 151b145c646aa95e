import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { productionDepsOptions } from '../../mcp-server/production.js';
import { runDebateToFile } from '../../protocols/debate/index.js';
import { agentsOn, debaterScript, FOUR_AGENT_DEBATE } from '../protocols/debate/scripts.js';
import { startScriptedChat, type ScriptedChat } from '../doubles/scripted-chat.js';
import { startHarness, type Harness } from './harness.js';

let harness: Harness | undefined;
const servers: ScriptedChat[] = [];
const temps: string[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('what parley writes is private to its owner', () => {
  it('a run folder is 0700 and every file in it 0600', async () => {
    const chat = await startScriptedChat(debaterScript(FOUR_AGENT_DEBATE));
    servers.push(chat);
    harness = await startHarness(await productionDepsOptions(process.env));
    const { run } = await harness.ok('run_start', { protocol: 'debate', config: { question: 'Ship it?', agents: agentsOn(chat.baseUrl, ['m1', 'm2']), rounds: 2 } });
    const { run: done } = await harness.ok('run_status', { runId: run.runId, waitSeconds: 30 });
    expect(done.status, done.error).toBe('succeeded');
    const dir = join(harness.home, 'runs', run.runId);
    expect((await modeOf(dir)).toString(8)).toBe('700');
    const files = await readdir(dir);
    expect(files).toEqual(expect.arrayContaining(['run.json', 'output.json', 'audit.jsonl']));
    for (const file of files) expect(`${file} ${(await modeOf(join(dir, file))).toString(8)}`).toBe(`${file} 600`);
  });

  it('a run outside the server (CLI, sweeps): the run folder and its audit log are private too', async () => {
    const chat = await startScriptedChat(debaterScript(FOUR_AGENT_DEBATE));
    servers.push(chat);
    const work = await mkdtemp(join(tmpdir(), 'parley-private-'));
    temps.push(work);
    await runDebateToFile({ question: 'Ship it?', agents: agentsOn(chat.baseUrl, ['m1', 'm2']), rounds: 2 }, { outPath: join(work, 'debate.json') });
    expect((await modeOf(join(work, 'debate.run'))).toString(8)).toBe('700');
    expect((await modeOf(join(work, 'debate.run', 'audit.jsonl'))).toString(8)).toBe('600');
    expect((await modeOf(join(work, 'debate.json'))).toString(8)).toBe('600');
  });

  it('a deliberation: its folder 0700, its state file and audit log 0600', async () => {
    harness = await startHarness();
    const { deliberationId } = await harness.ok('delib_start', { question: 'Ship it?', consult: false });
    const dir = join(harness.home, 'deliberations');
    expect((await modeOf(dir)).toString(8)).toBe('700');
    for (const file of [`${deliberationId}.json`, `${deliberationId}.audit.jsonl`]) expect(`${file} ${(await modeOf(join(dir, file))).toString(8)}`).toBe(`${file} 600`);
  });
});
