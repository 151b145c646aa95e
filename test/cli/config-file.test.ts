/**
 * Issue 28, item 1: a --config file is what runs. Precedence is the flags the user gave, then the
 * file, then the defaults, for debate, dialogic, sweep files and run_start; an unknown key or a wrong
 * type is refused before any call, naming the file, the key and what is accepted; the run folder
 * records exactly what ran. Real CLI commands (in process) against scripted servers on 127.0.0.1.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { registerDebateCommand } from '../../cli/debate.js';
import { registerDialogicCommand } from '../../cli/dialogic.js';
import { registerSweepCommand } from '../../cli/sweep.js';
import { startScriptedChat, type ScriptedChat } from '../doubles/scripted-chat.js';
import { startWorld, type World } from '../protocols/dialogic/world.js';
import { runCli } from './cli-capture.js';

const work = await mkdtemp(join(tmpdir(), 'parley-config-file-'));
let chat: ScriptedChat | undefined;
let world: World | undefined;
afterEach(async () => {
  await chat?.close();
  await world?.chat.close();
  chat = world = undefined;
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** Two debaters who never agree (only the rounds asked for stop the debate), and a CRIT judge who scores nobody. */
const disagreeing = () =>
  startScriptedChat((req) => ({ content: JSON.stringify(req.model === 'judge' ? { agents: [] } : { answer: req.model === 'm1' ? 'yes' : 'no', reasoning: 'held' }) }));

async function configFile(name: string, config: unknown): Promise<string> {
  const path = join(work, name);
  await writeFile(path, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  return path;
}

const recorded = async (runFolder: string) => JSON.parse(await readFile(join(runFolder, 'config.json'), 'utf8')).config;

describe('parley debate --config', () => {
  it('runs the rounds and identities the file gives, over the flags\' defaults, and records what ran; a flag given wins over the file', async () => {
    chat = await disagreeing();
    const agents = ['m1', 'm2'].map((model) => `openai-compatible:${chat!.baseUrl}#${model}`);
    const cfg = await configFile('cfg.json', { question: 'Ship on Friday?', agents, rounds: 2, anonymise: false, stop: { onConvergence: false } });
    const out = join(work, 'from-file.json');
    const ran = await runCli(registerDebateCommand, ['debate', '--config', cfg, '--out', out]);
    expect(ran.exitCode, ran.stderr).toBe(0);
    const transcript = JSON.parse(await readFile(out, 'utf8'));
    expect(transcript.rounds).toHaveLength(2);
    expect(transcript.anonymise).toBe(false);
    // Not anonymised: each agent is shown by its model's name, not as "Agent n".
    expect(transcript.agents.map((agent: { label: string }) => agent.label)).toEqual(['m1', 'm2']);
    expect(chat.requests).toHaveLength(4);
    expect(await recorded(join(work, 'from-file.run'))).toMatchObject({ rounds: 2, anonymise: false, question: 'Ship on Friday?' });

    const overridden = join(work, 'overridden.json');
    const flagged = await runCli(registerDebateCommand, ['debate', '--config', cfg, '--rounds', '1', '--out', overridden]);
    expect(flagged.exitCode, flagged.stderr).toBe(0);
    expect(JSON.parse(await readFile(overridden, 'utf8')).rounds).toHaveLength(1);
    expect(await recorded(join(work, 'overridden.run'))).toMatchObject({ rounds: 1, anonymise: false });
  });

  it('--no-anonymise and --crit-variant given win over the file; --crit-variant keeps the file\'s judge', async () => {
    chat = await disagreeing();
    const agents = ['m1', 'm2'].map((model) => `openai-compatible:${chat!.baseUrl}#${model}`);
    const judge = `openai-compatible:${chat.baseUrl}#judge`;
    const cfg = await configFile('flags-win.json', { question: 'Ship?', agents, rounds: 1, anonymise: true, crit: { judge, variant: 'gamma' } });
    const ran = await runCli(registerDebateCommand, ['debate', '--config', cfg, '--no-anonymise', '--crit-variant', 'pillars', '--out', join(work, 'flags-win.json')]);
    expect(ran.exitCode, ran.stderr).toBe(0);
    expect(await recorded(join(work, 'flags-win.run'))).toMatchObject({ rounds: 1, anonymise: false, crit: { judge, variant: 'pillars' } });
  });

  it.each([
    ['a wrong type', { rounds: 'three' }, /^parley debate: invalid debate config: .*wrong-type\.json: rounds: Invalid input: expected number, received string$/m],
    ['misspelt keys', { temperture: 0.2, critt: { judge: 'openai:gpt-4.1' } }, /misspelt-keys\.json: unknown keys "temperture" \(did you mean "temperature"\?\), "critt" \(did you mean "crit"\?\); the keys accepted here are question, agents, rounds, .*temperature/],
    ['a misspelt agents', { agentz: ['a', 'b'], agents: undefined }, /a-misspelt-agents\.json: unknown key "agentz" \(did you mean "agents"\?\); the keys accepted here are .*; agents: required, and not given \(expected array\)/],
    ['a misspelt nested key', { stop: { maxRound: 2 } }, /a-misspelt-nested-key\.json: stop: unknown key "maxRound" \(did you mean "maxRounds"\?\); the keys accepted here are onConvergence, epsilon, onUnanimity, minRounds, maxRounds, maxTotalTokens/],
  ])('refuses %s before any call, naming the file, the key and what is accepted', async (what, keys, expected) => {
    chat = await disagreeing();
    const agents = ['m1', 'm2'].map((model) => `openai-compatible:${chat!.baseUrl}#${model}`);
    const cfg = await configFile(`${what.replace(/ /g, '-')}.json`, { question: 'Ship?', agents, ...keys });
    const out = join(work, `${what.replace(/ /g, '-')}-out.json`);
    const ran = await runCli(registerDebateCommand, ['debate', '--config', cfg, '--out', out]);
    expect(ran.exitCode).toBe(1);
    expect(ran.stderr).toMatch(expected);
    expect(ran.stderr).not.toMatch(/give at least two debaters/);
    expect(chat.requests).toHaveLength(0);
    expect(existsSync(out) || existsSync(out.replace(/\.json$/, '.run'))).toBe(false);
  });

  it('a config file that is not JSON is named with the line and column', async () => {
    const cfg = await configFile('broken.json', '{\n  "question": "Ship?",\n  "rounds": 2,\n}\n');
    const ran = await runCli(registerDebateCommand, ['debate', '--config', cfg, '--out', join(work, 'broken-out.json')]);
    expect(ran.exitCode).toBe(1);
    expect(ran.stderr).toBe(`parley debate: ${cfg} is not valid JSON at ${cfg}:4:1: expected a key in double quotes after ',' (JSON allows no trailing comma)\n`);
    const missing = await runCli(registerDebateCommand, ['debate', '--config', 'nonexist.json']);
    expect(missing.stderr).toBe(`parley debate: nonexist.json does not exist (looked in ${process.cwd()}): check the name, or give the file's full path\n`);
  });
});

describe('parley dialogic --config', () => {
  it('runs what the file gives over the defaults, a flag given over the file, and refuses a misspelt key before any call', async () => {
    world = await startWorld({
      generations: {
        'model-a': [{ terms: ['K one', 'RA two', 'D three', 'K four'] }, { exhausted: true, statement: 'done' }],
        'model-b': [{ terms: ['K five', 'RC six', 'K seven', 'K eight'] }, { exhausted: true, statement: 'done' }],
      },
    });
    const cfg = await configFile('dialogic.json', { modelA: world.specA, modelB: world.specB, temperature: 0.2, anonymise: false, personas: 'swapped', maxCycles: 3 });
    const out = join(work, 'dialogic-run.json');
    const ran = await runCli(registerDialogicCommand, ['dialogic', '--config', cfg, '--temperature', '0.4', '--out', out]);
    expect(ran.exitCode, ran.stderr).toBe(0);
    expect(await recorded(join(work, 'dialogic-run.run'))).toMatchObject({ temperature: 0.4, anonymise: false, personas: 'swapped', maxCycles: 3 });
    expect(world.chat.requests.every((request) => request.body.temperature === 0.4)).toBe(true);

    const requests = world.chat.requests.length;
    const typo = await configFile('dialogic-typo.json', { modelA: world.specA, modelB: world.specB, maxCycle: 3 });
    const refused = await runCli(registerDialogicCommand, ['dialogic', '--config', typo, '--out', join(work, 'typo.json')]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/dialogic-typo\.json: unknown key "maxCycle" \(did you mean "maxCycles"\?\); the keys accepted here are modelA, modelB, personas/);
    expect(world.chat.requests).toHaveLength(requests);
  });
});

describe('a sweep file and run_start take the same keys', () => {
  it('a misspelt agents in a sweep is named as such, with the file, before anything is run', async () => {
    const sweep = await configFile('sweep.yaml', 'protocol: debate\nbase:\n  question: Ship?\n  agnets: [openai:gpt-4.1, openai:gpt-4.1-mini]\nmatrix:\n  rounds: [1, 2]\n');
    const out = join(work, 'sweep-out');
    const ran = await runCli(registerSweepCommand, ['sweep', sweep, '--out', out]);
    expect(ran.exitCode).toBe(1);
    expect(ran.stderr).toMatch(/sweep\.yaml gives configurations no run can start with/);
    expect(ran.stderr).toMatch(/the runs with rounds=1: invalid debate config: unknown key "agnets" \(did you mean "agents"\?\)/);
    expect(existsSync(out)).toBe(false);
  });
});
