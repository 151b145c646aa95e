import type { CritAgentScore, DebateRound, DebateTurn, TurnRecord } from '../../schemas/debate.js';
import { answerMeasures, confidenceVote, type AnswerMeasures, type ConfidenceVote } from './answer-measures.js';
import { entropy, generalizedJs, meanPairwiseJaccard, round6 } from './math.js';
import type { AnswerKind } from './parse-turn.js';

/** A round's measures; the answer-level ones (majority, agreement, unanimity, entropy, consensus) come from answer-measures.ts. */
export interface RoundMeasures extends AnswerMeasures {
  round: number;
  validAgents: number;
  formatFailures: number;
  callFailures: number;
  /** How the answer-level measures read the turns (DebateConfig.answerKind); see answer-measures.ts. */
  answerKind: AnswerKind;
  /** Each valid agent's answer (in a distribution debate, its top holding). */
  answers: Record<string, string>;
  /** ReConcile's confidence-weighted vote over the turns that stated a confidence; null when none did. */
  confidenceVote: ConfidenceVote | null;
  /** Mean entropy (bits) of each agent's own distribution. */
  meanAgentEntropy: number;
  /** Generalized Jensen-Shannon divergence (bits) between the agents' distributions. */
  js: number;
  /** Mean pairwise Jaccard of the agents' evidence sets. */
  overlap: number;
  deltaJs: number | null;
  deltaOverlap: number | null;
  /** s_t = 1[dJS < -delta_s and dOv < 0]. */
  sycophancy: 0 | 1 | null;
  /** JS_t / JS_{t-1}; null in round 1 or when JS_{t-1} is 0. */
  jsCollapseRatio: number | null;
  /** The ratio fell under 0.4 from a JS_{t-1} of at least 0.10. */
  collapse: boolean;
  /** Ordered pairs (i, j), i != j, with a rebut from i to j this round, over N(N-1). */
  rebuttalDensity: number;
  /** The same for any stance. */
  referenceDensity: number;
  references: number;
  /** References to an unknown agent, or to a known agent with an unknown claim id. */
  unresolvedReferences: number;
  rhoBar: number | null;
  beta: number | null;
}

export const COLLAPSE_RATIO = 0.4;
export const COLLAPSE_MIN_JS = 0.1;

export const isValidTurn = (turn: DebateTurn): boolean => turn.status === 'ok' && turn.record !== undefined;

/** The answer kind a transcript was run with; transcripts from before it existed are option debates. */
export const answerKindOf = (config: Record<string, unknown>): AnswerKind => (config.answerKind === 'distribution' ? 'distribution' : 'option');

export const validRecords = (round: DebateRound): { agentId: string; record: TurnRecord }[] =>
  round.turns.flatMap((turn) => (turn.status === 'ok' && turn.record ? [{ agentId: turn.agentId, record: turn.record }] : []));

/** rho_bar: the mean CRIT rho over the agents with a valid turn (a judge's score for anyone else is ignored). */
export function meanRho(scores: readonly CritAgentScore[], validAgentIds: ReadonlySet<string>): number | undefined {
  const rhos = scores.flatMap((score) => (score.rho === undefined || !validAgentIds.has(score.agentId) ? [] : [score.rho]));
  return rhos.length > 0 ? rhos.reduce((sum, rho) => sum + rho, 0) / rhos.length : undefined;
}

function pairDensity(round: DebateRound, agentCount: number, stance?: string): number {
  const pairs = new Set<string>();
  for (const { agentId, record } of validRecords(round)) {
    for (const ref of record.references) {
      if (!ref.resolved || ref.targetAgent === agentId || (stance && ref.stance !== stance)) continue;
      pairs.add(`${agentId}->${ref.targetAgent}`);
    }
  }
  const possible = agentCount * (agentCount - 1);
  return possible === 0 ? 0 : pairs.size / possible;
}

/** Measures of every round, in order; each round's deltas are against the round before it. */
export function measureRounds(rounds: DebateRound[], agentCount: number, deltaS: number, answerKind: AnswerKind = 'option'): RoundMeasures[] {
  const out: RoundMeasures[] = [];
  for (const round of rounds) {
    const valid = validRecords(round);
    const answers = Object.fromEntries(valid.map(({ agentId, record }) => [agentId, record.answer]));
    const answerLevel = answerMeasures(valid, answerKind);
    const js = generalizedJs(valid.map(({ record }) => record.distribution));
    const overlap = meanPairwiseJaccard(valid.map(({ record }) => new Set(record.evidence)));
    const previous = out.at(-1);
    const deltaJs = previous ? js - previous.js : null;
    const deltaOverlap = previous ? overlap - previous.overlap : null;
    const jsCollapseRatio = previous && previous.js > 0 ? js / previous.js : null;
    const references = valid.reduce((sum, { record }) => sum + record.references.length, 0);
    const unresolved = valid.reduce((sum, { record }) => sum + record.references.filter((ref) => !ref.resolved || ref.unresolvedClaim !== undefined).length, 0);
    out.push({
      round: round.round,
      validAgents: valid.length,
      formatFailures: round.turns.filter((turn) => turn.status === 'format-failure').length,
      callFailures: round.turns.filter((turn) => turn.status === 'call-failure').length,
      answerKind,
      answers,
      majorityAnswer: answerLevel.majorityAnswer,
      tiedAnswers: answerLevel.tiedAnswers,
      agreement: answerLevel.agreement,
      agentsInAgreement: answerLevel.agentsInAgreement,
      unanimity: answerLevel.unanimity,
      voteEntropy: answerLevel.voteEntropy,
      consensus: answerLevel.consensus,
      confidenceVote: confidenceVote(valid, answerKind),
      meanAgentEntropy: valid.length ? round6(valid.reduce((sum, { record }) => sum + entropy(record.distribution), 0) / valid.length) : 0,
      js: round6(js),
      overlap: round6(overlap),
      deltaJs: deltaJs === null ? null : round6(deltaJs),
      deltaOverlap: deltaOverlap === null ? null : round6(deltaOverlap),
      sycophancy: deltaJs === null || deltaOverlap === null ? null : deltaJs < -deltaS && deltaOverlap < 0 ? 1 : 0,
      jsCollapseRatio: jsCollapseRatio === null ? null : round6(jsCollapseRatio),
      collapse: previous !== undefined && previous.js >= COLLAPSE_MIN_JS && jsCollapseRatio !== null && jsCollapseRatio < COLLAPSE_RATIO,
      rebuttalDensity: round6(pairDensity(round, agentCount, 'rebut')),
      referenceDensity: round6(pairDensity(round, agentCount)),
      references,
      unresolvedReferences: unresolved,
      // Recomputed, not read back: transcripts written before issue 14 averaged failed agents in.
      rhoBar: round.crit ? (meanRho(round.crit.scores, new Set(valid.map(({ agentId }) => agentId))) ?? null) : null,
      beta: round.beta ?? null,
    });
  }
  return out;
}
