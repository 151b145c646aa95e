import { afterEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { productionDepsOptions } from '../../mcp-server/production.js';
import { agentsOn, debaterScript, FOUR_AGENT_DEBATE, roundOf } from '../protocols/debate/scripts.js';
import { startScriptedChat, type ChatRequestRecord, type ScriptedChat } from '../doubles/scripted-chat.js';
import { filesDigest } from '../protocols/folder-digest.js';
import { startHarness, type Harness } from './harness.js';

let harness: Harness | undefined;
let chat: ScriptedChat | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await chat?.close();
});

describe('run_start {runId} on a stopped run', () => {
  it('resumes it with its own configuration, and refuses another one before any call, naming what differs', async () => {
    // Round 2 hangs until the run is canceled: the run stops with round 1 in its audit log.
    const script = debaterScript(FOUR_AGENT_DEBATE);
    let hang = true;
    chat = await startScriptedChat((req: ChatRequestRecord) => (hang && roundOf(req) === 2 ? { ...script(req), delayMs: 60_000 } : script(req)));
    harness = await startHarness(await productionDepsOptions({ ...process.env, PARLEY_API_KEY: 'test-key' }));
    const config = { question: 'Ship the release?', agents: agentsOn(chat.baseUrl, ['m1', 'm2', 'm3', 'm4']), rounds: 3 };
    const { run } = await harness.ok('run_start', { protocol: 'debate', config });
    while (!chat.requests.some((req) => roundOf(req) === 2)) await new Promise((resolve) => setTimeout(resolve, 20));
    const { run: stopped } = await harness.ok('run_cancel', { runId: run.runId });
    expect(stopped.status).toBe('canceled');
    hang = false;
    const recorded = JSON.parse(await readFile(run.files.output.replace('output.json', 'config.json'), 'utf8'));
    expect(recorded).toMatchObject({ protocol: 'debate', config: { question: 'Ship the release?' } });
    const requests = chat.requests.length;
    const folder = dirname(run.files.output);
    const before = await filesDigest(folder);

    const changed = { ...config, question: 'Ship it next week?', agents: agentsOn(chat.baseUrl, ['m1', 'm2', 'm3', 'm3']), temperature: 0.2 };
    const refusal = await harness.refused('run_start', { protocol: 'debate', runId: run.runId, config: changed });
    expect(refusal).toContain('holds a debate run started with another configuration');
    expect(refusal).toMatch(/agents\.3\.model: ".*#m4" -> ".*#m3"; question: "Ship the release\?" -> "Ship it next week\?"; temperature: \(none\) -> 0\.2/);
    expect(refusal).toContain(`nothing was called or changed. To start a fresh run, call run_start without runId; to resume run ${run.runId}, call run_start {runId} without config`);
    expect(chat.requests.length).toBe(requests);
    expect(await filesDigest(folder)).toEqual(before);
    expect((await harness.ok('run_status', { runId: run.runId })).run.status).toBe('canceled');

    // Without a config (or with the same one), the run resumes: round 1 is replayed, not asked again.
    await harness.ok('run_start', { protocol: 'debate', runId: run.runId });
    const { run: done } = await harness.ok('run_status', { runId: run.runId, waitSeconds: 30 });
    expect(done.status, done.error).toBe('succeeded');
    expect(chat.requests.filter((req) => roundOf(req) === 1)).toHaveLength(4);
    const result = await harness.ok('run_result', { runId: run.runId });
    expect(result.output.question).toBe('Ship the release?');
    expect(result.output.rounds).toHaveLength(2);
  });
});
