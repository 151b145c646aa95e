import type { DebateTranscript, ResolvedReference, TurnRecord } from '../../schemas/debate.js';
import { UserFacingError } from '../../schemas/user-facing-error.js';
import { checkWeights, type Distribution } from './math.js';

/** The sentence that refuses an agent's distribution, live (the turn is invalid) and on re-analysis. */
export const distributionProblem = (who: string, round: number, problem: string): string => `${who}'s distribution in round ${round} ${problem}`;

/** An agent's weights as the measures read them (see checkWeights), or a refusal naming agent and round. */
function checkedDistribution(distribution: Distribution, who: string, round: number): Distribution {
  const checked = checkWeights(distribution);
  if (!checked.ok) throw new UserFacingError(distributionProblem(who, round, checked.problem), { code: 'debate-distribution-invalid' });
  return checked.distribution;
}

/** Records written before issue 14 marked a known agent with an unknown claim id unresolved, dropping the agent edge. */
function upgradedReference(ref: ResolvedReference, agentIds: ReadonlySet<string>): ResolvedReference {
  if (ref.resolved || !agentIds.has(ref.targetAgent) || ref.raw.claim === undefined) return ref;
  return { ...ref, resolved: true, unresolvedClaim: ref.raw.claim };
}

/**
 * The transcript as the measures read it: every distribution normalised (or refused, naming the agent
 * and round), and every reference to a known agent counted as an agent edge.
 */
export function prepareForAnalysis(transcript: DebateTranscript): DebateTranscript {
  const agentIds = new Set(transcript.agents.map((agent) => agent.id));
  const rounds = transcript.rounds.map((round) => ({
    ...round,
    turns: round.turns.map((turn) => {
      if (!turn.record) return turn;
      const record: TurnRecord = {
        ...turn.record,
        distribution: checkedDistribution(turn.record.distribution, `${turn.label} (${turn.agentId})`, round.round),
        references: turn.record.references.map((ref) => upgradedReference(ref, agentIds)),
      };
      return { ...turn, record };
    }),
  }));
  return { ...transcript, rounds };
}
