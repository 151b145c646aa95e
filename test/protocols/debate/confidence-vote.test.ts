/** Issue 14 item 7b: ReConcile's confidence-weighted vote in every round's measures, hand-computed. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerDebateCommand } from '../../../cli/debate.js';
import { confidenceVote } from '../../../protocols/debate/answer-measures.js';
import { analyzeDebate, runDebateToFile } from '../../../protocols/debate/index.js';
import { debateProtocol } from '../../../protocols/debate/index.js';
import type { TurnRecord } from '../../../schemas/debate.js';
import { runCli } from '../../cli/cli-capture.js';
import { startScriptedChat, type ScriptedChat } from '../../doubles/scripted-chat.js';
import { agentsOn, debaterScript } from './scripts.js';

const voter = (n: number, answer: string, confidence?: number, distribution: Record<string, number> = { [answer]: 1 }) => ({
  agentId: `agent-${n}`,
  record: { answer, distribution, ...(confidence !== undefined && { confidence }), claims: [], references: [], evidence: [] } as TurnRecord,
});

describe('the weighted vote', () => {
  it('can overturn the head count: one sure "yes" outweighs two unsure "no"s', () => {
    // f(0.95) = 0.8 (< 1), f(0.7) = 0.3 (<= 0.8), f(0.6) = 0.1 (<= 0.6); agent 4 states none and does not vote here.
    // yes: 0.8; no: 0.3 + 0.1 = 0.4 -> "yes", though "no" has 3 of 4 heads.
    const vote = confidenceVote([voter(1, 'yes', 0.95), voter(2, 'no', 0.7), voter(3, 'no', 0.6), voter(4, 'no')], 'option');
    expect(vote).toEqual({ weights: { yes: 0.8, no: 0.4 }, answer: 'yes', tiedAnswers: [], recalibrated: { 'agent-1': 0.8, 'agent-2': 0.3, 'agent-3': 0.1 }, voters: 3 });
  });

  it('reports a tie rather than break it, and is absent when nobody states a confidence', () => {
    // f(0.85) = 0.5 each side.
    expect(confidenceVote([voter(1, 'yes', 0.85), voter(2, 'no', 0.9)], 'option')).toMatchObject({ answer: null, tiedAnswers: ['no', 'yes'] });
    expect(confidenceVote([voter(1, 'yes'), voter(2, 'no')], 'option')).toBeNull();
  });

  it('in a distribution debate each ballot is the agent\'s distribution', () => {
    // f(1) = 1 on {a:.5, b:.5}; f(0.8) = 0.3 on {a:1}: a = .5 + .3 = .8, b = .5.
    // (In an option debate the same turns would vote their answers: a 1 + 0.3 = 1.3.)
    const turns = [voter(1, 'a = b', 1, { a: 0.5, b: 0.5 }), voter(2, 'a', 0.8, { a: 1 })];
    expect(confidenceVote(turns, 'distribution')).toMatchObject({ weights: { a: 0.8, b: 0.5 }, answer: 'a', voters: 2 });
  });
});

describe('a scripted debate with stated confidences', () => {
  // Round 1: yes 0.95, no 0.7, no 0.6. Round 2: yes 1, no (none), no 0.9. Round 3: nobody states one.
  const SCRIPT = {
    m1: [{ answer: 'yes', confidence: 0.95 }, { answer: 'yes', confidence: 1 }, { answer: 'yes' }],
    m2: [{ answer: 'no', confidence: 0.7 }, { answer: 'no' }, { answer: 'no' }],
    m3: [{ answer: 'no', confidence: 0.6 }, { answer: 'no', confidence: 0.9 }, { answer: 'no' }],
  };
  let server: ScriptedChat;
  let work: string;
  let outPath: string;
  let run: Awaited<ReturnType<typeof runDebateToFile>>;

  beforeAll(async () => {
    server = await startScriptedChat(debaterScript(SCRIPT));
    work = await mkdtemp(join(tmpdir(), 'parley-debate-conf-'));
    outPath = join(work, 'debate.json');
    run = await runDebateToFile({ question: 'Ship today?', agents: agentsOn(server.baseUrl, ['m1', 'm2', 'm3']), rounds: 3 }, { outPath });
  });
  afterAll(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  it('puts a confidence-weighted vote in each round that has a stated confidence', async () => {
    expect(run.stop).toEqual({ reason: 'fixed-rounds', roundsRun: 3 });
    // The run output run_result serves is the protocol's analysis.
    const rounds = (await debateProtocol.analyze(run)).measures.rounds as ReturnType<typeof analyzeDebate>['measures']['rounds'];
    // Round 1: heads 2:1 for "no"; weights yes 0.8, no 0.3 + 0.1 = 0.4.
    expect(rounds[0]).toMatchObject({ majorityAnswer: 'no', confidenceVote: { weights: { yes: 0.8, no: 0.4 }, answer: 'yes', voters: 3 } });
    // Round 2: f(1) = 1 for yes; agent 2 states none; f(0.9) = 0.5 for no -> yes 1, no 0.5.
    expect(rounds[1]!.confidenceVote).toEqual({ weights: { yes: 1, no: 0.5 }, answer: 'yes', tiedAnswers: [], recalibrated: { 'agent-1': 1, 'agent-3': 0.5 }, voters: 2 });
    expect(rounds[2]!.confidenceVote).toBeNull();
    expect(analyzeDebate(run).table).toContain('round 1 confidence-weighted vote (ReConcile, 3 voter(s)): yes');
  });

  it('reaches the CLI\'s JSON', async () => {
    expect(JSON.parse(await readFile(outPath, 'utf8')).kind).toBe('parley.debate');
    const { stdout } = await runCli(registerDebateCommand, ['debate', 'analyze', outPath]);
    const json = JSON.parse(stdout);
    expect(json.measures.rounds.map((round: { confidenceVote: { answer: string } | null }) => round.confidenceVote?.answer ?? null)).toEqual(['yes', 'yes', null]);
  });
});
