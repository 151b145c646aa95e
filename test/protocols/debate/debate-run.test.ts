import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeDebate, exportGraph, measuresToCsv, runDebateToFile, type DebateAnalysis } from '../../../protocols/debate/index.js';
import type { DebateTranscript } from '../../../schemas/debate.js';
import { startScriptedChat, type ScriptedChat } from '../../doubles/scripted-chat.js';
import { FOUR_AGENT_DEBATE, agentsOn, debaterScript } from './scripts.js';

const MODELS = ['m1', 'm2', 'm3', 'm4'];
let server: ScriptedChat;
let work: string;
let transcript: DebateTranscript;
let analysis: DebateAnalysis;
let outPath: string;

beforeAll(async () => {
  server = await startScriptedChat(debaterScript(FOUR_AGENT_DEBATE));
  work = await mkdtemp(join(tmpdir(), 'parley-debate-'));
  outPath = join(work, 'debate.json');
  transcript = await runDebateToFile(
    { question: 'Should we ship the release today?', agents: agentsOn(server.baseUrl, MODELS), rounds: 3, groundTruth: 'no' },
    { outPath },
  );
  analysis = analyzeDebate(transcript);
});

afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

describe('a scripted 4-agent, 3-round debate', () => {
  it('stops early on unanimity after round 2, with one call per agent per round', () => {
    expect(transcript.stop).toEqual({ reason: 'unanimity', roundsRun: 2 });
    expect(server.requests).toHaveLength(8);
    expect(transcript.rounds.map((round) => round.order)).toEqual([
      ['agent-1', 'agent-2', 'agent-3', 'agent-4'],
      ['agent-2', 'agent-3', 'agent-4', 'agent-1'],
    ]);
    // 8 calls x the scripted server's default usage (10 prompt, 5 completion tokens).
    expect(transcript.usage.inputTokens).toBe(80);
    expect(transcript.usage.outputTokens).toBe(40);
  });

  it('keeps every agent on an append-only, byte-identical prefix', () => {
    for (const model of MODELS) {
      const [first, second] = server.requests.filter((req) => req.model === model);
      expect(second!.messages.slice(0, first!.messages.length)).toEqual(first!.messages);
      expect(second!.messages).toHaveLength(first!.messages.length + 2);
      expect(second!.messages[first!.messages.length]).toEqual({ role: 'assistant', content: JSON.stringify(FOUR_AGENT_DEBATE[model]![0]) });
    }
  });

  it('puts the soft constraint and the referencing rule in the prompt, and the previous round in the transcript', () => {
    const system = server.requests[0]!.messages[0]!.content;
    expect(system).toMatch(/your silence may be interpreted as implicit acceptance/);
    expect(system).toMatch(/give the agent name and the claim id/);
    const roundTwo = server.requests.find((req) => req.model === 'm2' && req.messages.length === 4)!;
    const prompt = roundTwo.messages.at(-1)!.content;
    expect(prompt).toContain('### Agent 2 (you)');
    expect(prompt).toContain('[R1-A2-c2] Docs are missing.');
    expect(prompt.indexOf('### Agent 1')).toBeLessThan(prompt.indexOf('### Agent 4'));
  });

  it('builds the debate graph by hand-counted nodes and edges', () => {
    const { graph } = analysis;
    // 4 agents + 5 claims in round 1 + 3 claims in round 2
    expect(graph.nodes).toHaveLength(12);
    const engaged = graph.edges.filter((edge) => edge.kind === 'agent').map((edge) => `${edge.from}>${edge.to}:${edge.stance}`);
    expect(engaged.sort()).toEqual(['agent-1>agent-2:rebut', 'agent-1>agent-4:rebut', 'agent-2>agent-1:concede', 'agent-3>agent-1:support', 'agent-4>agent-1:concede']);
    const onClaims = graph.edges.filter((edge) => edge.kind === 'claim').map((edge) => `${edge.from}>${edge.to}`);
    // "c1" given with agent "Agent 4" resolves to R1-A4-c1
    expect(onClaims.sort()).toEqual(['agent-1>R1-A2-c1', 'agent-1>R1-A4-c1', 'agent-2>R1-A1-c1', 'agent-3>R1-A1-c1', 'agent-4>R1-A1-c1']);
    expect(graph.edges.filter((edge) => edge.kind === 'authored')).toHaveLength(8);
    expect(exportGraph(analysis, 'dot')).toContain('"agent-1" -> "agent-2" [label="r2 rebut", color=red];');
    expect(exportGraph(analysis, 'mermaid')).toContain('agent_4 -->|"r2 concede"| agent_1');
    expect(JSON.parse(exportGraph(analysis, 'json'))).toEqual(graph);
  });

  it('computes the round measures by hand', () => {
    const [one, two] = analysis.measures.rounds;
    // Round 1: yes, no, yes ("Yes" normalised), no: a 2-2 tie, reported rather than given to the first speaker.
    expect(one).toMatchObject({ validAgents: 4, majorityAnswer: null, tiedAnswers: ['no', 'yes'], agreement: 0.5, unanimity: false, voteEntropy: 1, meanAgentEntropy: 0, js: 1 });
    // Evidence {e1,e2} {e2,e3} {e1} {e4}: pairs 1/3 + 1/2 + 0*4 = 5/6, over 6 pairs = 5/36.
    expect(one!.overlap).toBeCloseTo(5 / 36, 6);
    expect(one).toMatchObject({ deltaJs: null, sycophancy: null, rebuttalDensity: 0, references: 0 });
    // Round 2: all yes -> JS 0, entropy 0; evidence {e1} {e3} {} {e5} share nothing -> Ov 0.
    expect(two).toMatchObject({ agreement: 1, agentsInAgreement: 4, unanimity: true, voteEntropy: 0, js: 0, overlap: 0, deltaJs: -1 });
    expect(two!.deltaOverlap).toBeCloseTo(-5 / 36, 6);
    // dJS = -1 < -0.05 and dOv < 0: sycophancy signal; JS 1 -> 0: ratio 0 < 0.4 from JS >= 0.10: collapse.
    expect(two).toMatchObject({ sycophancy: 1, jsCollapseRatio: 0, collapse: true });
    // Rebut pairs 1->2 and 1->4 of 4*3 = 12 ordered pairs; any-stance pairs 5 of 12.
    expect(two!.rebuttalDensity).toBeCloseTo(2 / 12, 6);
    expect(two!.referenceDensity).toBeCloseTo(5 / 12, 6);
  });

  it('computes transitions, conformity, influence, dominance, ignored claims and silence by hand', () => {
    const byId = Object.fromEntries(analysis.measures.agents.map((agent) => [agent.agentId, agent]));
    expect(byId['agent-1']).toMatchObject({ changes: 0, inDegree: 3, outDegree: 2, conformity: 0, obstinacy: 1 });
    expect(byId['agent-1']!.inDegreeByStance).toEqual({ rebut: 0, qualify: 0, support: 1, concede: 2, extend: 0 });
    expect(byId['agent-2']).toMatchObject({ firstAnswer: 'no', finalAnswer: 'yes', changes: 1, inDegree: 1, conformity: 1, obstinacy: 0 });
    expect(byId['agent-2']!.transitions[0]).toMatchObject({ changed: true, adoptedPeerAnswer: true, reliedOnOther: false, bulliedByOther: true });
    expect(byId['agent-3']).toMatchObject({ changes: 0, inDegree: 0, conformity: 0, obstinacy: 1 });
    expect(byId['agent-4']).toMatchObject({ changes: 1, inDegree: 1, conformity: 1, obstinacy: 0 });
    expect(analysis.measures.influence).toEqual([
      { round: 2, agentId: 'agent-2', from: 'no', to: 'yes', engaged: ['agent-1'], adoptedFrom: ['agent-1', 'agent-3'] },
      { round: 2, agentId: 'agent-4', from: 'no', to: 'yes', engaged: ['agent-1'], adoptedFrom: ['agent-1', 'agent-3'] },
    ]);
    expect(analysis.measures.dominance[0]).toEqual({ agentId: 'agent-1', inDegree: 3 });
    expect(analysis.measures.ignoredClaims).toEqual(['R1-A2-c2', 'R1-A3-c1']);
    expect(analysis.measures.unreferenceableClaims).toBe(3);
    // Opposing agents that answered in round 2 without engaging a round-1 claim.
    const silence = analysis.measures.silenceCandidates.map((c) => `${c.agentId}:${c.claimId}`).sort();
    expect(silence).toEqual(['agent-1:R1-A2-c2', 'agent-2:R1-A3-c1', 'agent-3:R1-A2-c1', 'agent-3:R1-A2-c2', 'agent-3:R1-A4-c1', 'agent-4:R1-A3-c1']);
    expect(analysis.measures.summary).toMatchObject({
      stopReason: 'unanimity',
      finalMajorityAnswer: 'yes',
      finalCorrect: false,
      howManyAgentsChanged: 2,
      uniqueFirstAnswers: 2,
      reliedOnOther: 0,
      bulliedByOther: 2,
      conformity: 0.5,
      obstinacy: 0.5,
      sycophancyRounds: [2],
      ignoredClaims: 2,
      silenceCandidates: 6,
      dominantAgent: 'agent-1',
      formatFailures: 0,
    });
  });

  it('re-analyzes the saved file to identical results', async () => {
    const saved = JSON.parse(await readFile(outPath, 'utf8'));
    expect(analyzeDebate(saved)).toEqual(analysis);
    const csv = measuresToCsv(analyzeDebate(saved));
    expect(csv.split('\n')[0]).toMatch(/^round,validAgents,.*,rhoBar,beta,tiedAnswers,answerKind,consensus,confidenceVoteAnswer,confidenceVoteTied,confidenceVoteWeights$/);
    expect(csv.split('\n')[1]).toMatch(/^1,4,0,0,,0\.5,2,.*,no\|yes,option,,yes,,yes=0\.3$/);
    expect(csv.split('\n')[2]).toMatch(/^2,4,0,0,yes,1,4,true,0,0,0,0,-1,/);
    expect(measuresToCsv(analysis, 'agents').split('\n')).toHaveLength(6);
  });
});
