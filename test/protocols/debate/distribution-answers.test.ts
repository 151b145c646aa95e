/** Issue 14 item 5: answers that are distributions, hand-computed (log base 2 throughout). */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerMeasures, UNANIMITY_MAX_JS } from '../../../protocols/debate/answer-measures.js';
import { analyzeDebate, runDebateToFile } from '../../../protocols/debate/index.js';
import { checkWeights } from '../../../protocols/debate/math.js';
import { readTurn } from '../../../protocols/debate/parse-turn.js';
import type { DebateAgent } from '../../../protocols/debate/agents.js';
import { DebaterReply, DistributionDebaterReply, type DebateRound, type DebateTurn, type TurnRecord } from '../../../schemas/debate.js';
import { startScriptedChat, type ScriptedChat } from '../../doubles/scripted-chat.js';
import { agentsOn, debaterScript } from './scripts.js';
import { registerDebateCommand } from '../../../cli/debate.js';
import { runCli } from '../../cli/cli-capture.js';
import { readFile } from 'node:fs/promises';

const close = (value: number | null | undefined, expected: number) => expect(value).toBeCloseTo(expected, 6);
const valid = (...distributions: Record<string, number>[]) =>
  distributions.map((distribution, i) => ({ agentId: `agent-${i + 1}`, record: { answer: '-', distribution, claims: [], references: [], evidence: [] } as TurnRecord }));
const agents: DebateAgent[] = [1, 2, 3].map((n) => ({ id: `agent-${n}`, number: n, label: `Agent ${n}`, model: `openai:m${n}` }));

describe('the one weight rule', () => {
  it('scales percentages and raw weights to sum to 1 and refuses negative or all-zero weights', () => {
    expect(checkWeights({ stocks: 60, bonds: 40 })).toEqual({ ok: true, distribution: { stocks: 0.6, bonds: 0.4 } });
    expect(checkWeights({ a: 3, b: 1, c: 0 })).toEqual({ ok: true, distribution: { a: 0.75, b: 0.25 } });
    expect(checkWeights({ a: 1.2, b: -0.2 })).toMatchObject({ ok: false, problem: expect.stringMatching(/negative weight -0\.2 for "b"/) });
    expect(checkWeights({ a: 0, b: 0 })).toMatchObject({ ok: false, problem: expect.stringMatching(/all zero/) });
  });

  it('a live turn: the top holding is the answer; ties are all named; refusals name agent and round', () => {
    const ctx = { round: 2, agent: agents[1]!, agents, knownClaims: [], options: ['Bonds', 'Stocks'] };
    const parsed = DistributionDebaterReply.parse({ distribution: { stocks: 1, bonds: 3 } });
    expect(readTurn(parsed, ctx, 'distribution')).toMatchObject({ record: { answer: 'Bonds', distribution: { Stocks: 0.25, Bonds: 0.75 } } });
    expect(readTurn(DistributionDebaterReply.parse({ distribution: { stocks: 1, bonds: 1 } }), ctx, 'distribution')).toMatchObject({ record: { answer: 'Bonds = Stocks' } });
    expect(readTurn(DistributionDebaterReply.parse({ distribution: { bonds: 0 } }), ctx, 'distribution')).toEqual({
      refusal: "Agent 2 (agent-2)'s distribution in round 2 is empty or all zero: give at least one positive weight",
    });
    // A distribution debate needs the allocation: the schema asks for it (a repair follows), and the reader refuses without it.
    expect(DistributionDebaterReply.safeParse({ answer: 'Bonds' }).success).toBe(false);
    expect(readTurn({ answer: 'Bonds', claims: [], references: [], evidence: [] }, ctx, 'distribution')).toEqual({
      refusal: "Agent 2 (agent-2)'s distribution in round 2 is missing: this debate asks for every answer as a distribution",
    });
    // An option debate refuses the same weights (before issue 14 an all-zero one fell back to the answer).
    expect(readTurn(DebaterReply.parse({ answer: 'Bonds', distribution: { Bonds: 0, Stocks: 0 } }), ctx, 'option')).toHaveProperty('refusal');
    expect(readTurn(DebaterReply.parse({ answer: 'Bonds', distribution: { Bonds: 2, Stocks: -1 } }), ctx, 'option')).toHaveProperty('refusal');
  });
});

describe('answer-level measures on distributions', () => {
  it('two agents: M = {a: .75, b: .25}; agreement 1 - JS; entropy H(M)', () => {
    // P1 = {a: .5, b: .5}, P2 = {a: 1}; JS = 0.3112781 (measures.test.ts), log2(2) = 1 -> agreement 0.6887219.
    // H(M) = -(.75 log2 .75 + .25 log2 .25) = 0.8112781 = JS + mean H(P_i) = 0.3112781 + (1 + 0) / 2.
    // P1's top is a tie (a, b), so only P2 holds M's top "a" alone: 1 agent in agreement; no unanimity.
    const m = answerMeasures(valid({ a: 0.5, b: 0.5 }, { a: 1 }), 'distribution');
    expect(m).toMatchObject({ majorityAnswer: 'a', tiedAnswers: [], agentsInAgreement: 1, unanimity: false, consensus: { a: 0.75, b: 0.25 } });
    close(m.agreement, 0.6887219);
    close(m.voteEntropy, 0.8112781);
  });

  it('three agents: JS is normalised by log2(3); a tied consensus is reported, not broken', () => {
    // P = {a:1}, {b:1}, {a:.5,b:.5}; M = {a:.5,b:.5}; JS = H(M) - mean H = 1 - 1/3 = 0.6666667
    // agreement = 1 - 0.6666667 / 1.5849625 = 0.5793802; H(M) = 1
    const m = answerMeasures(valid({ a: 1 }, { b: 1 }, { a: 0.5, b: 0.5 }), 'distribution');
    expect(m).toMatchObject({ majorityAnswer: null, tiedAnswers: ['a', 'b'], agentsInAgreement: 1, voteEntropy: 1 });
    close(m.agreement, 0.5793802);
  });

  it('unanimity needs one shared top holding and JS under delta_JS', () => {
    // {a:.6,b:.4} vs {a:.7,b:.3}: M = {a:.65,b:.35}; JS = H(.65) - (H(.6) + H(.7))/2 = 0.9340681 - 0.9261207 = 0.0079473 < 0.05
    expect(answerMeasures(valid({ a: 0.6, b: 0.4 }, { a: 0.7, b: 0.3 }), 'distribution').unanimity).toBe(true);
    // {a:.9,b:.1} vs {a:.55,b:.45}: both hold "a" first but JS = 0.1176632 >= 0.05; as votes they would be unanimous.
    expect(UNANIMITY_MAX_JS).toBe(0.05);
    expect(answerMeasures(valid({ a: 0.9, b: 0.1 }, { a: 0.55, b: 0.45 }), 'distribution').unanimity).toBe(false);
    expect(answerMeasures(valid({ a: 0.9, b: 0.1 }, { a: 0.55, b: 0.45 }).map((v) => ({ ...v, record: { ...v.record, answer: 'a' } })), 'option').unanimity).toBe(true);
  });

  it('one-hot distributions give the vote measures back: H(M) is the vote entropy', () => {
    const oneHot = valid({ yes: 1 }, { no: 1 }, { yes: 1 }, { yes: 1 }).map((v) => ({ ...v, record: { ...v.record, answer: Object.keys(v.record.distribution)[0]! } }));
    const [byDistribution, byVote] = [answerMeasures(oneHot, 'distribution'), answerMeasures(oneHot, 'option')];
    // H(3/4, 1/4) = 0.8112781 both ways; agreement 1 - 0.8112781 / log2(4) = 0.5943609 (votes: 3/4).
    expect(byDistribution.voteEntropy).toBe(byVote.voteEntropy);
    close(byDistribution.voteEntropy, 0.8112781);
    close(byDistribution.agreement, 0.5943609);
    expect(byVote.agreement).toBe(0.75);
    expect([byDistribution.majorityAnswer, byDistribution.agentsInAgreement]).toEqual(['yes', 3]);
  });
});

describe('conformity as movement toward the peers', () => {
  const turn = (n: number, round: number, distribution: Record<string, number>): DebateTurn => ({
    agentId: `agent-${n}`, label: `Agent ${n}`, step: `r${round}/agent-${n}`, status: 'ok', replayed: false,
    record: { answer: Object.keys(distribution).sort((x, y) => distribution[y]! - distribution[x]!)[0]!, distribution, claims: [], references: [], evidence: [] },
  });
  const round = (n: number, turns: DebateTurn[]): DebateRound => ({ round: n, order: turns.map((t) => t.agentId), turns });
  const transcript = (answerKind: string) => ({
    kind: 'parley.debate', version: 1, runId: 'r', startedAt: '2026-01-01T00:00:00Z', question: 'q', anonymise: true,
    agents: agents.slice(0, 2).map(({ id, label, model }) => ({ id, label, model })),
    config: { answerKind },
    rounds: [round(1, [turn(1, 1, { a: 1 }), turn(2, 1, { b: 1 })]), round(2, [turn(1, 2, { a: 0.25, b: 0.75 }), turn(2, 2, { b: 1 })])],
    stop: { reason: 'fixed-rounds', roundsRun: 2 }, usage: { inputTokens: 0, outputTokens: 0 },
  });

  it('is the share of the gap to the peers closed; obstinacy what was kept', () => {
    const { measures } = analyzeDebate(transcript('distribution'));
    // Agent 1: Q = {b:1}; JSD({a:1}, Q) = 1. After, JSD({a:.25,b:.75}, {b:1}): M = {a:.125,b:.875},
    //   KL(P||M) = .25*1 + .75 log2(.75/.875) = 0.0832057, KL(Q||M) = log2(1/.875) = 0.1926451 -> 0.1379254.
    //   towardPeers = (1 - 0.1379254) / 1 = 0.8620746. retained = 1 - JSD({a:1}, {a:.25,b:.75}) = 1 - 0.5487949 = 0.4512051.
    // Agent 2: Q = {a:1}, it stays at {b:1}: towardPeers 0, retained 1.
    const [one, two] = measures.agents;
    close(one!.transitions[0]!.towardPeers, 0.8620746);
    close(one!.conformity, 0.8620746);
    close(one!.obstinacy, 0.4512051);
    expect(two).toMatchObject({ conformity: 0, obstinacy: 1 });
    // Pooled: (0.8620746 + 0) / 2 = 0.4310373 and (0.4512051 + 1) / 2 = 0.7256025.
    close(measures.summary.conformity, 0.4310373);
    close(measures.summary.obstinacy, 0.7256025);
    expect(measures.summary.answerKind).toBe('distribution');
  });

  it('differs from the vote reading of the same transcript, where agent 1 simply adopted "b"', () => {
    const { summary } = analyzeDebate(transcript('option')).measures;
    expect(summary).toMatchObject({ answerKind: 'option', conformity: 0.5, obstinacy: 0.5 });
  });
});

describe('a scripted distribution debate through the run loop', () => {
  // Three allocators over Bonds/Stocks/Cash; agent 3 sends all-zero weights in round 1 and a negative
  // one in round 2. Round 4 is scripted but must never be asked for: unanimity stops after round 3.
  const SCRIPT = {
    m1: [{ distribution: { Stocks: 60, Bonds: 40 } }, { distribution: { Bonds: 0.9, Stocks: 0.1 } }, { distribution: { Bonds: 3, Stocks: 1 } }, { distribution: { Bonds: 1 } }],
    m2: [{ distribution: { Bonds: 0.7, Stocks: 0.3 } }, { distribution: { Bonds: 55, Stocks: 45 } }, { distribution: { Bonds: 0.8, Stocks: 0.2 } }, { distribution: { Bonds: 1 } }],
    m3: [{ answer: 'Cash', distribution: { Cash: 0, Bonds: 0 } }, { distribution: { Bonds: 1.2, Cash: -0.2 } }, { distribution: { Bonds: 80, Stocks: 20 } }, { distribution: { Bonds: 1 } }],
  };
  let server: ScriptedChat;
  let work: string;
  let run: Awaited<ReturnType<typeof runDebateToFile>>;

  beforeAll(async () => {
    server = await startScriptedChat(debaterScript(SCRIPT));
    work = await mkdtemp(join(tmpdir(), 'parley-debate-dist-'));
    run = await runDebateToFile(
      { question: 'How should the fund be allocated?', agents: agentsOn(server.baseUrl, ['m1', 'm2', 'm3']), options: ['Bonds', 'Stocks', 'Cash'], answerKind: 'distribution', rounds: 4 },
      { outPath: join(work, 'debate.json') },
    );
  });
  afterAll(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  it('tells the agents to answer with a distribution and shows them the others\' allocations', () => {
    const system = server.requests[0]!.messages[0]!.content;
    expect(system).toContain('Allocate over these options: "Bonds", "Stocks", "Cash".');
    expect(system).toContain('Answer with a distribution, not a single option');
    expect(system).toContain('- "distribution" (required): your answer, an object from each option you hold to its weight.');
    const roundTwo = server.requests.find((req) => req.model === 'm2' && req.messages.length === 4)!.messages.at(-1)!.content;
    expect(roundTwo).toContain('Answer: Stocks\nDistribution: Stocks=0.60, Bonds=0.40');
    expect(roundTwo).toMatch(/### Agent 3\n\(no valid response this round\)/);
  });

  it('records a negative or all-zero allocation as an invalid turn naming agent and round, with no repair call', () => {
    const third = run.rounds.map((round) => round.turns.find((turn) => turn.agentId === 'agent-3')!);
    expect(third[0]).toMatchObject({ status: 'format-failure', error: "Agent 3 (agent-3)'s distribution in round 1 is empty or all zero: give at least one positive weight" });
    expect(third[1]).toMatchObject({ status: 'format-failure', error: expect.stringMatching(/^Agent 3 \(agent-3\)'s distribution in round 2 has a negative weight -0\.2 for "Cash"/) });
    expect(third[2]).toMatchObject({ status: 'ok', record: { answer: 'Bonds', distribution: { Bonds: 0.8, Stocks: 0.2 } } });
    expect(server.requests).toHaveLength(9);
  });

  it('measures each round on the distributions, and stops on distribution unanimity', () => {
    expect(run.stop).toEqual({ reason: 'unanimity', roundsRun: 3 });
    const [r1, r2, r3] = analyzeDebate(run).measures.rounds;
    // Round 1 (agents 1, 2): M = {Stocks: .45, Bonds: .55}; H(M) = 0.9927745;
    // JS = 0.9927745 - (H(.6) 0.9709506 + H(.7) 0.8812909) / 2 = 0.0666537; agreement = 1 - 0.0666537 = 0.9333463.
    expect(r1).toMatchObject({ answerKind: 'distribution', validAgents: 2, formatFailures: 1, majorityAnswer: 'Bonds', agentsInAgreement: 1, unanimity: false });
    expect(r1!.answers).toEqual({ 'agent-1': 'Stocks', 'agent-2': 'Bonds' });
    close(r1!.consensus!.Bonds!, 0.55);
    close(r1!.js, 0.0666537);
    close(r1!.agreement, 0.9333463);
    close(r1!.voteEntropy, 0.9927745);
    // Round 2: both hold Bonds first, but JS = H(.725) 0.8485482 - (H(.9) 0.4689956 + H(.55) 0.9927745) / 2 = 0.1176632 >= 0.05: no unanimity.
    expect(r2).toMatchObject({ majorityAnswer: 'Bonds', agentsInAgreement: 2, unanimity: false });
    close(r2!.agreement, 0.8823368);
    // Round 3, all three: {.75,.25}, {.8,.2}, {.8,.2}; M = {Bonds: .7833333, Stocks: .2166667}, H(M) = 0.7540341;
    // JS = 0.7540341 - (0.8112781 + 2 * 0.7219281) / 3 = 0.0023226 < 0.05; agreement = 1 - 0.0023226 / log2(3) = 0.9985346.
    expect(r3).toMatchObject({ validAgents: 3, majorityAnswer: 'Bonds', agentsInAgreement: 3, unanimity: true });
    close(r3!.js, 0.0023226);
    close(r3!.agreement, 0.9985346);
    close(r3!.voteEntropy, 0.7540341);
  });
});

describe('from the command line', () => {
  it('--answer-kind distribution asks for allocations and measures them as such', async () => {
    const server = await startScriptedChat(debaterScript({ m1: [{ distribution: { Bonds: 3, Stocks: 1 } }], m2: [{ distribution: { Bonds: 0.5, Stocks: 0.5 } }] }));
    const work = await mkdtemp(join(tmpdir(), 'parley-debate-dist-cli-'));
    try {
      const agentArgs = agentsOn(server.baseUrl, ['m1', 'm2']).flatMap((agent) => ['--agent', agent.model]);
      const out = join(work, 'debate.json');
      const ran = await runCli(registerDebateCommand, ['debate', 'Allocate the fund', ...agentArgs, '--options', 'Bonds,Stocks', '--answer-kind', 'distribution', '--rounds', '1', '--out', out]);
      expect(ran.exitCode, ran.stderr).toBe(0);
      const transcript = JSON.parse(await readFile(out, 'utf8'));
      expect(transcript.config.answerKind).toBe('distribution');
      expect(server.requests[0]!.messages[0]!.content).toContain('Answer with a distribution, not a single option');
      // M = {Bonds: .625, Stocks: .375}: the top holding of the mean allocation.
      expect(analyzeDebate(transcript).measures.rounds[0]).toMatchObject({ answerKind: 'distribution', majorityAnswer: 'Bonds' });
    } finally {
      await server.close();
      await rm(work, { recursive: true, force: true });
    }
  });
});
