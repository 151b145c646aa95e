import type { DebateTranscript, ResolvedReference, TurnRecord } from '../../schemas/debate.js';
import { UserFacingError } from '../../schemas/user-facing-error.js';
import type { Distribution } from './math.js';

/** Scales an agent's weights to sum to 1 (percentages, raw weights and probabilities alike). */
function checkedDistribution(distribution: Distribution, who: string, round: number): Distribution {
  const entries = Object.entries(distribution);
  for (const [key, value] of entries) {
    if (!Number.isFinite(value) || value < 0) {
      throw new UserFacingError(`${who}'s distribution in round ${round} has a negative weight ${value} for ${JSON.stringify(key)}: weights must be non-negative with a positive sum`, {
        code: 'debate-distribution-invalid',
      });
    }
  }
  const total = entries.reduce((sum, [, value]) => sum + value, 0);
  if (total <= 0) {
    throw new UserFacingError(`${who}'s distribution in round ${round} is empty or all zero: give at least one positive weight`, { code: 'debate-distribution-invalid' });
  }
  return Object.fromEntries(entries.filter(([, value]) => value > 0).map(([key, value]) => [key, value / total]));
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
