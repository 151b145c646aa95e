/** The per-round CSV's flat columns for answerKind, consensus and the confidence vote, on hand-built transcripts. */
import { describe, expect, it } from 'vitest';
import { analyzeDebate, measuresToCsv } from '../../../protocols/debate/index.js';
import type { DebateRound, DebateTurn } from '../../../schemas/debate.js';

const turn = (n: number, round: number, answer: string, distribution: Record<string, number>, confidence?: number): DebateTurn => ({
  agentId: `agent-${n}`, label: `Agent ${n}`, step: `r${round}/agent-${n}`, status: 'ok', replayed: false,
  record: { answer, distribution, ...(confidence !== undefined && { confidence }), claims: [], references: [], evidence: [] },
});
const round = (n: number, turns: DebateTurn[]): DebateRound => ({ round: n, order: turns.map((t) => t.agentId), turns });
const transcript = (answerKind: string, agentCount: number, rounds: DebateRound[]) => ({
  kind: 'parley.debate', version: 1, runId: 'r', startedAt: '2026-01-01T00:00:00Z', question: 'q', anonymise: true,
  agents: Array.from({ length: agentCount }, (_, i) => ({ id: `agent-${i + 1}`, label: `Agent ${i + 1}`, model: `openai:m${i + 1}` })),
  config: { answerKind },
  rounds,
  stop: { reason: 'fixed-rounds', roundsRun: rounds.length }, usage: { inputTokens: 0, outputTokens: 0 },
});

const NEW_COLUMNS = ['answerKind', 'consensus', 'confidenceVoteAnswer', 'confidenceVoteTied', 'confidenceVoteWeights'];

/** The header and, per round, the new columns' cells by name (no cell here needs quoting). */
function table(input: unknown): { header: string[]; cells: Record<string, string>[] } {
  const [header, ...rows] = measuresToCsv(analyzeDebate(input)).trimEnd().split('\n').map((line) => line.split(','));
  return { header: header!, cells: rows.map((row) => Object.fromEntries(NEW_COLUMNS.map((name) => [name, row[header!.indexOf(name)]!]))) };
}

describe('the per-round CSV', () => {
  it('appends answerKind and the flat consensus and confidence-vote columns after the older ones', () => {
    const { header } = table(transcript('option', 2, [round(1, [turn(1, 1, 'yes', { yes: 1 }), turn(2, 1, 'no', { no: 1 })])]));
    expect(header.join(',')).toBe(
      'round,validAgents,formatFailures,callFailures,majorityAnswer,agreement,agentsInAgreement,unanimity,voteEntropy,meanAgentEntropy,' +
        'js,overlap,deltaJs,deltaOverlap,sycophancy,jsCollapseRatio,collapse,rebuttalDensity,referenceDensity,references,unresolvedReferences,' +
        'rhoBar,beta,tiedAnswers,answerKind,consensus,confidenceVoteAnswer,confidenceVoteTied,confidenceVoteWeights',
    );
  });

  it('writes a distribution round\'s consensus as option=weight, sorted, 6 decimals; no vote means empty vote cells', () => {
    // M = mean({c: 1}, {a: 1/3, c: 2/3}) = {c: 5/6, a: 1/6}; nobody states a confidence.
    const { cells } = table(transcript('distribution', 2, [round(1, [turn(1, 1, 'c', { c: 1 }), turn(2, 1, 'c', { a: 1 / 3, c: 2 / 3 })])]));
    expect(cells[0]).toEqual({ answerKind: 'distribution', consensus: 'a=0.166667|c=0.833333', confidenceVoteAnswer: '', confidenceVoteTied: '', confidenceVoteWeights: '' });
  });

  it('writes the confidence vote\'s answer, ties and weights, and leaves every new cell but answerKind empty without either', () => {
    const rounds = [
      // f(0.95) = 0.8 for yes; f(0.85) = 0.5 + f(0.6) = 0.1 for no -> yes 0.8, no 0.6: "yes" wins the vote.
      round(1, [turn(1, 1, 'yes', { yes: 1 }, 0.95), turn(2, 1, 'no', { no: 1 }, 0.85), turn(3, 1, 'no', { no: 1 }, 0.6)]),
      // Nobody states a confidence: no vote, and an option debate has no consensus.
      round(2, [turn(1, 2, 'yes', { yes: 1 }), turn(2, 2, 'no', { no: 1 }), turn(3, 2, 'no', { no: 1 })]),
      // f(0.9) = 0.5 each side (agent 3 states none): a tie, reported, not broken.
      round(3, [turn(1, 3, 'yes', { yes: 1 }, 0.9), turn(2, 3, 'no', { no: 1 }, 0.85), turn(3, 3, 'no', { no: 1 })]),
    ];
    const { cells } = table(transcript('option', 3, rounds));
    expect(cells).toEqual([
      { answerKind: 'option', consensus: '', confidenceVoteAnswer: 'yes', confidenceVoteTied: '', confidenceVoteWeights: 'no=0.6|yes=0.8' },
      { answerKind: 'option', consensus: '', confidenceVoteAnswer: '', confidenceVoteTied: '', confidenceVoteWeights: '' },
      { answerKind: 'option', consensus: '', confidenceVoteAnswer: '', confidenceVoteTied: 'no|yes', confidenceVoteWeights: 'no=0.5|yes=0.5' },
    ]);
  });

  it('quotes a flat cell whose option holds a comma, through the one CSV writer', () => {
    const csv = measuresToCsv(analyzeDebate(transcript('distribution', 1, [round(1, [turn(1, 1, 'x, y', { 'x, y': 1 })])])));
    expect(csv.split('\n')[1]).toMatch(/,distribution,"x, y=1",,,$/);
  });
});
