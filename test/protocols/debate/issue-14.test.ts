/** Issue 14, Debate items 1-4: hand-computed examples, each failing before its fix. */
import { describe, expect, it } from 'vitest';
import { analyzeDebate } from '../../../protocols/debate/analyze.js';
import { critPrompt, critScores, type CritReply } from '../../../protocols/debate/judges.js';
import { toTurnRecord, type KnownClaim } from '../../../protocols/debate/parse-turn.js';
import { pidStep } from '../../../protocols/debate/pid.js';
import { measureRounds } from '../../../protocols/debate/round-measures.js';
import { speakingOrder, type DebateAgent } from '../../../protocols/debate/agents.js';
import { DebaterReply, PidConfig, type DebateRound, type DebateTurn, type TurnRecord } from '../../../schemas/debate.js';
import { UserFacingError } from '../../../schemas/user-facing-error.js';

const agents: DebateAgent[] = [1, 2, 3, 4].map((n) => ({ id: `agent-${n}`, number: n, label: `Agent ${n}`, model: `openai:m${n}` }));
const record = (answer: string, extra: Partial<TurnRecord> = {}): TurnRecord => ({
  answer,
  distribution: { [answer]: 1 },
  claims: [],
  references: [],
  evidence: [],
  ...extra,
});
const ok = (n: number, rec: TurnRecord): DebateTurn => ({ agentId: `agent-${n}`, label: `Agent ${n}`, step: `r1/agent-${n}`, status: 'ok', record: rec, replayed: false });
const failed = (n: number): DebateTurn => ({ agentId: `agent-${n}`, label: `Agent ${n}`, step: `r1/agent-${n}`, status: 'call-failure', error: 'timeout', replayed: false });
const roundOf = (number: number, turns: DebateTurn[], extra: Partial<DebateRound> = {}): DebateRound => ({
  round: number,
  order: turns.map((turn) => turn.agentId),
  turns,
  ...extra,
});
const transcriptOf = (rounds: DebateRound[], count = 4) => ({
  kind: 'parley.debate',
  version: 1,
  runId: 'r',
  startedAt: '2026-01-01T00:00:00Z',
  question: 'q',
  anonymise: true,
  agents: agents.slice(0, count).map(({ id, label, model }) => ({ id, label, model })),
  config: {},
  rounds,
  stop: { reason: 'fixed-rounds', roundsRun: rounds.length },
  usage: { inputTokens: 0, outputTokens: 0 },
});
const pillars = (value: number) => ({ logicalValidity: value, evidentialSupport: value, alternativeConsideration: value, causalAlignment: value });

describe('1. rho_bar over valid turns only', () => {
  // Agents 1, 2, 4 answered (rho 0.8, 0.9, 0.85); agent 3 failed yet the judge scored it 0.3.
  // Over all four: (0.8 + 0.9 + 0.3 + 0.85) / 4 = 2.85 / 4 = 0.7125. Over the valid three: 2.55 / 3 = 0.85.
  const reply: CritReply = {
    agents: [
      { agent: 'Agent 1', pillars: pillars(0.8), flags: [] },
      { agent: 'Agent 2', pillars: pillars(0.9), flags: [] },
      { agent: 'Agent 3', pillars: pillars(0.3), flags: [] },
      { agent: 'Agent 4', pillars: pillars(0.85), flags: [] },
    ],
  };
  const round = roundOf(1, [ok(1, record('yes')), ok(2, record('yes')), failed(3), ok(4, record('yes'))]);

  it('scores and averages only the agents with a valid turn', () => {
    const { scores, rhoBar } = critScores(reply, agents, round);
    expect(scores.map((score) => score.agentId)).toEqual(['agent-1', 'agent-2', 'agent-4']);
    expect(rhoBar).toBeCloseTo(0.85, 9);
  });

  it('moves the PID to CONVERGED and lowers beta (not STUCK, raising it)', () => {
    // JS 0 < delta_JS 0.05 (not diverse); 0.85 >= rho* 0.8 -> CONVERGED: beta 0.9 * 0.6 = 0.54.
    // With 0.7125 < 0.8 it would be STUCK: beta 0.6 + 0.1 = 0.7.
    const { rhoBar } = critScores(reply, agents, round);
    const step = pidStep({ beta: 0.6, integral: 0 }, { rhoBar: rhoBar!, sycophancy: 0, js: 0 }, PidConfig.parse({}));
    expect(step.quadrant).toBe('CONVERGED');
    expect(step.nextBeta).toBeCloseTo(0.54, 9);
  });

  it('re-analysis recomputes rho_bar from the valid agents of a stored round', () => {
    const stored = { status: 'ok' as const, rhoBar: 0.7125, scores: reply.agents.map((entry, i) => ({ agentId: `agent-${i + 1}`, rho: entry.pillars!.logicalValidity, flags: [] })) };
    expect(measureRounds([{ ...round, crit: stored }], 4, 0.05)[0]!.rhoBar).toBeCloseTo(0.85, 9);
  });

  it('does not show the judge an agent without a valid turn', () => {
    const prompt = critPrompt({ question: 'q', agents }, round, undefined, 'pillars');
    expect(prompt).toContain('### Agent 1');
    expect(prompt).not.toContain('### Agent 3');
  });
});

describe('2. a known agent with an unknown claim id', () => {
  const known: KnownClaim[] = [{ id: 'R1-A2-c1', agentId: 'agent-2', localId: 'c1', round: 1 }];
  const reply = DebaterReply.parse({ answer: 'yes', references: [{ agent: 'Agent 2', claim: 'c9', stance: 'rebut' }, { agent: 'Agent 7', claim: 'c1', stance: 'support' }] });
  const rec = toTurnRecord(reply, { round: 2, agent: agents[0]!, agents: agents.slice(0, 3), knownClaims: known });

  it('keeps the agent edge and records the claim as unresolved', () => {
    expect(rec.references[0]).toMatchObject({ targetAgent: 'agent-2', resolved: true, unresolvedClaim: 'c9' });
    expect(rec.references[0]!.targetClaim).toBeUndefined();
    // An unknown agent stays unresolved.
    expect(rec.references[1]).toMatchObject({ targetAgent: 'Agent 7', resolved: false });
  });

  it('counts in the graph, the densities and the in-degree; both references count as unresolved', () => {
    const rounds = [roundOf(1, [ok(1, record('yes')), ok(2, record('no', { claims: [{ id: 'R1-A2-c1', localId: 'c1', text: 't' }] })), ok(3, record('no'))]), roundOf(2, [ok(1, rec), ok(2, record('no')), ok(3, record('no'))])];
    const transcript = transcriptOf(rounds, 3);
    const analysis = analyzeDebate(transcript);
    const agentEdges = analysis.graph.edges.filter((edge) => edge.kind === 'agent');
    expect(agentEdges).toEqual([{ from: 'agent-1', to: 'agent-2', kind: 'agent', round: 2, stance: 'rebut', count: 1 }]);
    expect(analysis.graph.edges.filter((edge) => edge.kind === 'claim')).toEqual([]);
    const two = analysis.measures.rounds[1]!;
    // One rebut pair (1 -> 2) of 3 * 2 = 6 ordered pairs.
    expect(two.rebuttalDensity).toBeCloseTo(1 / 6, 6);
    expect(two).toMatchObject({ references: 2, unresolvedReferences: 2 });
    expect(analysis.measures.agents.find((agent) => agent.agentId === 'agent-2')!.inDegree).toBe(1);
  });

  it('re-analysis of an older record (resolved: false, known target) keeps the edge too', () => {
    const old = record('yes', { references: [{ targetAgent: 'agent-2', stance: 'rebut', raw: { agent: 'Agent 2', claim: 'c9' }, resolved: false }] });
    const analysis = analyzeDebate(transcriptOf([roundOf(1, [ok(1, old), ok(2, record('no'))])], 2));
    expect(analysis.graph.edges.filter((edge) => edge.kind === 'agent')).toHaveLength(1);
    expect(analysis.measures.rounds[0]).toMatchObject({ references: 1, unresolvedReferences: 1, rebuttalDensity: 0.5 });
  });
});

describe('3. distributions are normalised on re-analysis', () => {
  const withDistributions = (a: Record<string, number>, b: Record<string, number>) =>
    transcriptOf([roundOf(1, [ok(1, record('a', { distribution: a })), ok(2, record('a', { distribution: b }))])], 2);

  it('gives the same JS for percentages, raw weights and probabilities', () => {
    // P1 = {a: .5, b: .5}, P2 = {a: 1}; M = {a: .75, b: .25}
    // KL(P1||M) = .5 log2(.5/.75) + .5 log2(.5/.25) = -0.2924813 + 0.5 = 0.2075187; KL(P2||M) = log2(1/.75) = 0.4150375
    // JS = (0.2075187 + 0.4150375) / 2 = 0.3112781
    for (const [a, b] of [
      [{ a: 0.5, b: 0.5 }, { a: 1 }],
      [{ a: 50, b: 50 }, { a: 100 }],
      [{ a: 3, b: 3 }, { a: 7 }],
    ] as const) {
      expect(analyzeDebate(withDistributions(a, b)).measures.rounds[0]!.js).toBeCloseTo(0.3112781, 6);
    }
    // Mean own entropy: H(P1) = 1 bit, H(P2) = 0 -> 0.5.
    expect(analyzeDebate(withDistributions({ a: 50, b: 50 }, { a: 100 })).measures.rounds[0]!.meanAgentEntropy).toBeCloseTo(0.5, 6);
  });

  it('refuses a negative or an all-zero weight, naming the agent and the round', () => {
    const negative = () => analyzeDebate(withDistributions({ a: 0.5, b: 0.5 }, { a: 1.2, b: -0.2 }));
    expect(negative).toThrow(UserFacingError);
    expect(negative).toThrow(/Agent 2 \(agent-2\).*round 1.*negative weight -0\.2 for "b"/);
    expect(() => analyzeDebate(withDistributions({ a: 0, b: 0 }, { a: 1 }))).toThrow(/Agent 1 \(agent-1\).*round 1.*all zero/);
    expect(() => analyzeDebate(withDistributions({}, { a: 1 }))).toThrow(/Agent 1 \(agent-1\).*round 1.*all zero/);
  });
});

describe('4. ties do not depend on speaking order', () => {
  // 4 agents: yes, no, yes, no -> counts yes 2, no 2: a tie. agreement = 2/4 = 0.5, H = 1 bit.
  const answers = ['yes', 'no', 'yes', 'no'];
  const roundWithOrder = (rotation: number) => {
    const order = speakingOrder(agents.map((agent) => agent.id), rotation);
    return roundOf(1, order.map((id) => ok(Number(id.slice(-1)), record(answers[Number(id.slice(-1)) - 1]!))));
  };

  it('reports a tie whatever the speaking order', () => {
    const byOrder = [1, 2, 3, 4].map((rotation) => measureRounds([roundWithOrder(rotation)], 4, 0.05)[0]!);
    for (const m of byOrder) {
      expect(m).toMatchObject({ majorityAnswer: null, tiedAnswers: ['no', 'yes'], agreement: 0.5, agentsInAgreement: 2, voteEntropy: 1 });
    }
  });

  it('a clear majority is unaffected: yes, no, yes, yes -> yes 3/4 in every order', () => {
    const three = ['yes', 'no', 'yes', 'yes'];
    for (const rotation of [1, 2, 3, 4]) {
      const order = speakingOrder(agents.map((agent) => agent.id), rotation);
      const round = roundOf(1, order.map((id) => ok(Number(id.slice(-1)), record(three[Number(id.slice(-1)) - 1]!))));
      expect(measureRounds([round], 4, 0.05)[0]).toMatchObject({ majorityAnswer: 'yes', tiedAnswers: [], agreement: 0.75 });
    }
  });

  it('the summary carries the tie, and a tie is neither right nor wrong', () => {
    const analysis = analyzeDebate({ ...transcriptOf([roundWithOrder(2)]), groundTruth: 'yes' });
    expect(analysis.measures.summary).toMatchObject({ finalMajorityAnswer: null, finalTiedAnswers: ['no', 'yes'], finalCorrect: null });
    expect(analysis.table).toContain('tie: no|yes');
  });
});
