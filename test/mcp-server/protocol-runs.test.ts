import { afterEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { productionDepsOptions } from '../../mcp-server/production.js';
import { DialogicRun } from '../../schemas/dialogic.js';
import { startWorld, type World } from '../protocols/dialogic/world.js';
import { agentsOn, debaterScript, FOUR_AGENT_DEBATE } from '../protocols/debate/scripts.js';
import { startScriptedChat, type ScriptedChat } from '../doubles/scripted-chat.js';
import { startHarness, type Harness } from './harness.js';

// The server-driven protocols through the MCP run tools, with the production protocol registry and
// real backends (the openai SDK) talking to the scripted OpenAI-compatible server.
let harness: Harness | undefined;
const servers: (World['chat'] | ScriptedChat)[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('dialogic and debate runs through the MCP tools', () => {
  it('runs a dialogic run to bilateral exhaustion and serves the seed JSON and its measures', async () => {
    const world = await startWorld({
      generations: {
        'model-a': [{ terms: ['K alpha', 'D alpha', 'K beta', 'RA gamma'] }, { exhausted: true, statement: 'Beyond: the substrate.' }],
        'model-b': [{ terms: ['K delta', 'D delta', 'K eps', 'K zeta'] }, { exhausted: true, statement: 'Beyond: before the first token.' }],
      },
    });
    servers.push(world.chat);
    harness = await startHarness(await productionDepsOptions({ ...process.env, PARLEY_API_KEY: 'test-key' }));
    const { run } = await harness.ok('run_start', { protocol: 'dialogic', config: { modelA: world.specA, modelB: world.specB, retryBaseMs: 1 } });
    const { run: done } = await harness.ok('run_status', { runId: run.runId, waitSeconds: 30 });
    expect(done.status, done.error).toBe('succeeded');
    const result = await harness.ok('run_result', { runId: run.runId });
    const output = DialogicRun.parse(result.output);
    expect(output.protocol).toBe('minimal-seed-dialogic');
    expect(output.submitted_terms.map((term) => term.term).sort()).toEqual(expect.arrayContaining(['K alpha', 'K delta']));
    expect(output.dropped_terms.map((term) => term.generation_metadata.status)).toEqual(output.dropped_terms.map(() => 'DROPPED'));
    expect(result.measures).toBeTypeOf('object');
    const audit = (await readFile(run.files.audit, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    expect(audit.length).toBeGreaterThan(8);
    const baseline = JSON.parse(await readFile(run.files.output.replace('output.json', 'baseline.json'), 'utf8'));
    expect(baseline).toBeTypeOf('object');
    const analyzed = await harness.ok('run_result', { path: run.files.output, protocol: 'dialogic' });
    // The run's own measures read its baseline (edit distance); a bare file has none.
    expect(result.measures.edit_distance).not.toBeNull();
    expect(analyzed.measures.edit_distance).toBeNull();
    expect(analyzed.measures.by_proposer).toEqual(result.measures.by_proposer);
    expect(result.measures.proposed).toBe(output.submitted_terms.length + output.dropped_terms.length);
  });

  it('runs a 4-agent debate that stops on unanimity and returns its measures', async () => {
    const chat = await startScriptedChat(debaterScript(FOUR_AGENT_DEBATE));
    servers.push(chat);
    harness = await startHarness(await productionDepsOptions({ ...process.env, PARLEY_API_KEY: 'test-key' }));
    const config = { question: 'Ship the release?', agents: agentsOn(chat.baseUrl, ['m1', 'm2', 'm3', 'm4']), rounds: 3 };
    const { run } = await harness.ok('run_start', { protocol: 'debate', config });
    const { run: done } = await harness.ok('run_status', { runId: run.runId, waitSeconds: 30 });
    expect(done.status, done.error).toBe('succeeded');
    const result = await harness.ok('run_result', { runId: run.runId });
    expect(result.output.rounds).toHaveLength(2);
    expect(chat.requests).toHaveLength(8);
    expect(result.table).toMatch(/round/i);
    const { runs } = await harness.ok('run_list', { protocol: 'debate' });
    expect(runs.map((r: { runId: string }) => r.runId)).toContain(run.runId);
    const read = async (file: string) => {
      const { contents } = await harness!.client.readResource({ uri: `parley://runs/${run.runId}/${file}` });
      return (contents[0] as { text: string }).text;
    };
    expect(JSON.parse(await read('output.json'))).toEqual(result.output);
    expect(JSON.parse(await read('measures.json'))).toEqual(result.measures);
    expect(await read('graph.dot')).toMatch(/^digraph/);
    expect((await read('audit.jsonl')).trim().split('\n').length).toBeGreaterThanOrEqual(8);
    await expect(harness.client.readResource({ uri: 'parley://runs/..%2Fx/output.json' })).rejects.toThrow(/invalid id/);
  });

  it('refuses a bad model spec and an invalid config with the reason', async () => {
    harness = await startHarness(await productionDepsOptions());
    expect(await harness.refused('run_start', { protocol: 'debate', config: { question: 'q', agents: [{ model: 'x' }] } })).toMatch(/invalid debate config: agents/);
    // A model spec that names no backend is refused before any model is called, with its path.
    const badJudge = { question: 'q', agents: [{ model: 'openai-compatible:http://127.0.0.1:9/v1#m1' }, { model: 'bogus:model' }], crit: { judge: 'codex:x y' } };
    const refusal = await harness.refused('run_start', { protocol: 'debate', config: badJudge });
    expect(refusal).toMatch(/agents\.1\.model: Model spec "bogus:model" names an unknown provider/);
    expect(refusal).toMatch(/crit\.judge: Model spec "codex:x y" has whitespace/);
    expect(await harness.refused('run_start', { protocol: 'dialogic', config: { modelA: 'openai:', modelB: 'claude' } })).toMatch(/modelA: Model spec "openai:" names no model/);
    // Issue 28, item 1: a key the protocol does not know is refused, never dropped, with the nearest known key.
    const misspelt = { question: 'q', agents: ['openai:gpt-4.1', 'openai:gpt-4.1-mini'], temperture: 0.2, stop: { maxRound: 2 } };
    const unknown = await harness.refused('run_start', { protocol: 'debate', config: misspelt });
    expect(unknown).toMatch(/invalid debate config: unknown key "temperture" \(did you mean "temperature"\?\); the keys accepted here are question, agents, rounds/);
    expect(unknown).toMatch(/stop: unknown key "maxRound" \(did you mean "maxRounds"\?\)/);
    expect(await harness.refused('run_start', { protocol: 'dialogic', config: { modelA: 'openai:gpt-4.1', modelB: 'openai:gpt-4.1', rounds: 3 } })).toMatch(
      /invalid dialogic config: unknown key "rounds"; the keys accepted here are modelA, modelB/,
    );
    expect((await harness.ok('run_list', {})).runs).toEqual([]);
  });
});
