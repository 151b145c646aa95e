import { afterEach, describe, expect, it } from 'vitest';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
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

  it('what an older parley left open (0755 folders, 0644 files) is made private by the next move', async () => {
    const home = await mkdtemp(join(tmpdir(), 'parley-private-'));
    temps.push(home);
    harness = await startHarness({ home });
    const { deliberationId } = await harness.ok('delib_start', { question: 'Ship it?', consult: false });
    await harness.close();
    const dir = join(home, 'deliberations');
    const files = [join(dir, `${deliberationId}.json`), join(dir, `${deliberationId}.audit.jsonl`)];
    for (const folder of [home, dir]) await chmod(folder, 0o755);
    for (const file of files) await chmod(file, 0o644);

    harness = await startHarness({ home });
    await harness.ok('delib_consult', { deliberationId, reply: '1. A point. INFERENCE' });
    const expectPrivate = async () => {
      for (const folder of [home, dir]) expect(`${folder} ${(await modeOf(folder)).toString(8)}`).toBe(`${folder} 700`);
      for (const file of files) expect(`${file} ${(await modeOf(file)).toString(8)}`).toBe(`${file} 600`);
    };
    await expectPrivate();
    // Opened up while the server runs: the next move (here one whose only item is refused) closes them again.
    for (const folder of [home, dir]) await chmod(folder, 0o755);
    for (const file of files) await chmod(file, 0o644);
    await harness.ok('delib_judge', { deliberationId, points: [{ id: 'P9.9', verdict: 'SKEPTICAL', flaw: 'x' }] });
    await expectPrivate();
  });

  it('an existing run folder of the server: made private with the state folder and runs/, its audit log too', async () => {
    const chat = await startScriptedChat(debaterScript(FOUR_AGENT_DEBATE));
    servers.push(chat);
    const home = await mkdtemp(join(tmpdir(), 'parley-private-'));
    temps.push(home);
    const dir = join(home, 'runs', 'r-old');
    await mkdir(dir, { recursive: true, mode: 0o755 });
    await writeFile(join(dir, 'audit.jsonl'), '', { mode: 0o644 });
    for (const folder of [home, join(home, 'runs'), dir]) await chmod(folder, 0o755);

    harness = await startHarness({ ...(await productionDepsOptions(process.env)), home });
    await harness.ok('run_start', { protocol: 'debate', runId: 'r-old', config: { question: 'Ship it?', agents: agentsOn(chat.baseUrl, ['m1', 'm2']), rounds: 2 } });
    const { run: done } = await harness.ok('run_status', { runId: 'r-old', waitSeconds: 30 });
    expect(done.status, done.error).toBe('succeeded');
    for (const folder of [home, join(home, 'runs'), dir]) expect(`${folder} ${(await modeOf(folder)).toString(8)}`).toBe(`${folder} 700`);
    expect((await modeOf(join(dir, 'audit.jsonl'))).toString(8)).toBe('600');
  });

  it('a CLI run folder made by an older parley (0755, audit log 0644) is made private', async () => {
    const chat = await startScriptedChat(debaterScript(FOUR_AGENT_DEBATE));
    servers.push(chat);
    const work = await mkdtemp(join(tmpdir(), 'parley-private-'));
    temps.push(work);
    const dir = join(work, 'debate.run');
    await mkdir(dir, { mode: 0o755 });
    await chmod(dir, 0o755);
    await writeFile(join(dir, 'audit.jsonl'), '', { mode: 0o644 });
    await chmod(join(dir, 'audit.jsonl'), 0o644);
    await runDebateToFile({ question: 'Ship it?', agents: agentsOn(chat.baseUrl, ['m1', 'm2']), rounds: 2 }, { outPath: join(work, 'debate.json') });
    expect((await modeOf(dir)).toString(8)).toBe('700');
    expect((await modeOf(join(dir, 'audit.jsonl'))).toString(8)).toBe('600');
  });

  it('temp files a killed run left in its run folder are swept when the folder is next taken', async () => {
    const chat = await startScriptedChat(debaterScript(FOUR_AGENT_DEBATE));
    servers.push(chat);
    const work = await mkdtemp(join(tmpdir(), 'parley-private-'));
    temps.push(work);
    const dir = join(work, 'debate.run');
    await mkdir(dir, { mode: 0o700 });
    // A write cut short by a kill: pid 2^22 + 1 is above any pid_max, so its writer is surely gone.
    const dead = `.baseline.json.${2 ** 22 + 1}.0123456789ab.tmp`;
    // One of a live process that is not old: left alone.
    const live = `.baseline.json.${process.ppid}.0123456789ab.tmp`;
    for (const name of [dead, live]) await writeFile(join(dir, name), '{"partial":', { mode: 0o600 });
    await runDebateToFile({ question: 'Ship it?', agents: agentsOn(chat.baseUrl, ['m1', 'm2']), rounds: 2 }, { outPath: join(work, 'debate.json') });
    const names = await readdir(dir);
    expect(names).not.toContain(dead);
    expect(names).toContain(live);
  });
});
