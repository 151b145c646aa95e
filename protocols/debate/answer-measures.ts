/**
 * The answer-level measures of one round: agreement, majority, unanimity, vote entropy, and the
 * ReConcile confidence-weighted vote. Definitions: README, "Debate measures"; research notes,
 * dialogic-and-debate.md (generalized JS, delta_JS, ReConcile's recalibration).
 */
import type { TurnRecord } from '../../schemas/debate.js';
import type { AnswerKind } from './parse-turn.js';
import { entropy, generalizedJs, histogram, mixture, recalibrateConfidence, round6, topHoldings, type Distribution } from './math.js';

/** Distribution answers are unanimous only below this divergence (bits): the research's delta_JS, under which agents are "not diverse". */
export const UNANIMITY_MAX_JS = 0.05;

export interface AnswerMeasures {
  /** The single most common answer (distribution debates: the consensus's top holding); null when none was valid or several tie. */
  majorityAnswer: string | null;
  /** The answers tied for most common, sorted; empty when there is no tie. */
  tiedAnswers: string[];
  /** Share of valid agents holding the most common answer; distribution debates: 1 - JS / log2(n). */
  agreement: number;
  agentsInAgreement: number;
  unanimity: boolean;
  /** Entropy (bits) of the answers across agents; distribution debates: H(consensus). */
  voteEntropy: number;
  /** Distribution debates: the mean of the valid agents' distributions, the round's consensus; null otherwise. */
  consensus: Distribution | null;
}

export interface ConfidenceVote {
  /** Sum over voters of recalibrated confidence x ballot (one-hot on the answer, or the distribution). */
  weights: Record<string, number>;
  /** The single heaviest answer; null on a tie. */
  answer: string | null;
  tiedAnswers: string[];
  /** Each voter's recalibrated weight, by agent id. */
  recalibrated: Record<string, number>;
  /** Valid turns that stated a confidence; the others do not vote here (no confidence is guessed). */
  voters: number;
}

type Valid = { agentId: string; record: TurnRecord }[];

// A tie is reported, never broken: any rule would put a choice the votes did not make into the result.
function lead(weights: Map<string, number> | Distribution): { top: number; majority: string | null; tied: string[] } {
  const entries = weights instanceof Map ? [...weights] : Object.entries(weights);
  const top = Math.max(0, ...entries.map(([, value]) => value));
  const leaders = entries.filter(([, value]) => value >= top - 1e-9).map(([key]) => key);
  return { top, majority: leaders.length === 1 ? leaders[0]! : null, tied: leaders.length > 1 ? leaders.sort() : [] };
}

/** Option debates: one vote per agent, its answer. */
function optionMeasures(valid: Valid): AnswerMeasures {
  const counts = new Map<string, number>();
  for (const { record } of valid) counts.set(record.answer, (counts.get(record.answer) ?? 0) + 1);
  const { top, majority, tied } = lead(counts);
  return {
    majorityAnswer: majority,
    tiedAnswers: tied,
    agreement: valid.length ? round6(top / valid.length) : 0,
    agentsInAgreement: top,
    unanimity: valid.length >= 2 && top === valid.length,
    voteEntropy: round6(entropy(histogram(valid.map(({ record }) => record.answer)))),
    consensus: null,
  };
}

/**
 * Distribution debates, n valid agents with distributions P_i, consensus M = mean_i P_i:
 * majority = the top holding of M; agreement = 1 - JS/log2(n) (JS = mean_i KL(P_i || M) is at most
 * log2 n, reached by disjoint allocations; 1 with one agent); vote entropy = H(M), which is the vote
 * entropy itself when every P_i is one-hot; agents in agreement = the most agents whose own single
 * top holding is one of M's; unanimity = n >= 2, every agent's single top holding the same, and
 * JS < UNANIMITY_MAX_JS.
 */
function distributionMeasures(valid: Valid): AnswerMeasures {
  const distributions = valid.map(({ record }) => record.distribution);
  if (distributions.length === 0) return { majorityAnswer: null, tiedAnswers: [], agreement: 0, agentsInAgreement: 0, unanimity: false, voteEntropy: 0, consensus: null };
  const consensus = mixture(distributions);
  const { majority, tied } = lead(consensus);
  const js = generalizedJs(distributions);
  const tops = distributions.map((p) => topHoldings(p));
  const single = tops.flatMap((top) => (top.length === 1 ? [top[0]!] : []));
  const leaders = majority === null ? tied : [majority];
  const agentsInAgreement = Math.max(0, ...leaders.map((answer) => single.filter((top) => top === answer).length));
  const n = distributions.length;
  return {
    majorityAnswer: majority,
    tiedAnswers: tied,
    agreement: n < 2 ? 1 : round6(Math.max(0, 1 - js / Math.log2(n))),
    agentsInAgreement,
    unanimity: n >= 2 && single.length === n && new Set(single).size === 1 && js < UNANIMITY_MAX_JS,
    voteEntropy: round6(entropy(consensus)),
    consensus: Object.fromEntries(Object.entries(consensus).map(([key, value]) => [key, round6(value)])),
  };
}

export function answerMeasures(valid: Valid, kind: AnswerKind): AnswerMeasures {
  return kind === 'distribution' ? distributionMeasures(valid) : optionMeasures(valid);
}

/**
 * ReConcile's confidence-weighted vote: weight(a) = sum_i f(c_i) * ballot_i(a), f the recalibration
 * (c <= 0.6 -> 0.1, <= 0.8 -> 0.3, <= 0.9 -> 0.5, < 1 -> 0.8, 1 -> 1); the ballot is one-hot on the
 * answer, or the agent's distribution in a distribution debate. Null when no valid turn stated a confidence.
 */
export function confidenceVote(valid: Valid, kind: AnswerKind): ConfidenceVote | null {
  const voters = valid.filter(({ record }) => record.confidence !== undefined);
  if (voters.length === 0) return null;
  const weights: Distribution = {};
  const recalibrated: Record<string, number> = {};
  for (const { agentId, record } of voters) {
    const f = recalibrateConfidence(record.confidence!);
    recalibrated[agentId] = f;
    const ballot = kind === 'distribution' ? record.distribution : { [record.answer]: 1 };
    for (const [answer, share] of Object.entries(ballot)) weights[answer] = (weights[answer] ?? 0) + f * share;
  }
  const { majority, tied } = lead(weights);
  return {
    weights: Object.fromEntries(Object.entries(weights).map(([key, value]) => [key, round6(value)])),
    answer: majority,
    tiedAnswers: tied,
    recalibrated,
    voters: voters.length,
  };
}
