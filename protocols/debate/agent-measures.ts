import type { DebateTranscript, Stance, TurnRecord } from '../../schemas/debate.js';
import { generalizedJs, mixture } from './math.js';
import { answerKindOf, validRecords } from './round-measures.js';

export interface Transition {
  fromRound: number;
  toRound: number;
  from: string;
  to: string;
  changed: boolean;
  /** Some peer held a different answer in the earlier round. */
  hadDifferingPeer: boolean;
  /** Changed to an answer a peer held in the earlier round. */
  adoptedPeerAnswer: boolean;
  /**
   * Distribution debates: the share of its gap to the peers' mean distribution Q of the earlier round
   * that the agent closed, clip((JSD(P_before, Q) - JSD(P_after, Q)) / JSD(P_before, Q), 0, 1).
   */
  towardPeers?: number;
  /** Distribution debates: how much of its own distribution the agent kept, 1 - JSD(P_before, P_after). */
  retained?: number;
  /** Wrong -> right (needs a ground truth). */
  reliedOnOther: boolean | null;
  /** Right -> wrong (needs a ground truth). */
  bulliedByOther: boolean | null;
}

export interface AgentMeasures {
  agentId: string;
  label: string;
  firstAnswer: string | null;
  finalAnswer: string | null;
  transitions: Transition[];
  changes: number;
  inDegree: number;
  inDegreeByStance: Record<Stance, number>;
  outDegree: number;
  /** P(adopt a peer's differing answer) over this agent's opportunities; null without any. Distribution debates: mean towardPeers. */
  conformity: number | null;
  /** P(keep its own answer) over the same opportunities. Distribution debates: mean retained. */
  obstinacy: number | null;
}

/** Two-distribution Jensen-Shannon divergence (bits, 0..1). */
const jsd = (p: Record<string, number>, q: Record<string, number>): number => generalizedJs([p, q]);

/** Conformity and obstinacy over the transitions with a differing peer (the opportunities); null without any. */
export function conformityOf(transitions: Transition[]): { conformity: number | null; obstinacy: number | null } {
  const opportunities = transitions.filter((transition) => transition.hadDifferingPeer);
  if (opportunities.length === 0) return { conformity: null, obstinacy: null };
  const mean = (pick: (t: Transition) => number) => opportunities.reduce((sum, t) => sum + pick(t), 0) / opportunities.length;
  return {
    conformity: mean((t) => t.towardPeers ?? (t.adoptedPeerAnswer ? 1 : 0)),
    obstinacy: mean((t) => t.retained ?? (t.changed ? 0 : 1)),
  };
}

export interface InfluenceEvent {
  round: number;
  agentId: string;
  from: string;
  to: string;
  /** Agents it referenced in the round it changed. */
  engaged: string[];
  /** Peers that held the new answer in the round before. */
  adoptedFrom: string[];
}

export interface SilenceCandidate {
  /** The agent that stayed silent on an opposing claim in the round after it was made. */
  agentId: string;
  claimId: string;
  claimAgentId: string;
  round: number;
}

type Records = Map<number, Map<string, TurnRecord>>;

function recordsByRound(transcript: DebateTranscript): Records {
  const out: Records = new Map();
  for (const round of transcript.rounds) out.set(round.round, new Map(validRecords(round).map(({ agentId, record }) => [agentId, record])));
  return out;
}

const emptyStances = (): Record<Stance, number> => ({ rebut: 0, qualify: 0, support: 0, concede: 0, extend: 0 });

export function measureAgents(transcript: DebateTranscript): { agents: AgentMeasures[]; influence: InfluenceEvent[] } {
  const records = recordsByRound(transcript);
  const byDistribution = answerKindOf(transcript.config) === 'distribution';
  const roundNumbers = transcript.rounds.map((round) => round.round);
  const truth = transcript.groundTruth?.trim().replace(/\s+/g, ' ');
  const isRight = (answer: string): boolean | null => (truth === undefined ? null : answer.toLowerCase() === truth.toLowerCase());
  const influence: InfluenceEvent[] = [];
  const agents = transcript.agents.map((agent): AgentMeasures => {
    const answers = roundNumbers.flatMap((round) => {
      const record = records.get(round)?.get(agent.id);
      return record ? [{ round, answer: record.answer, record }] : [];
    });
    const transitions: Transition[] = [];
    for (let index = 1; index < roundNumbers.length; index += 1) {
      const [previousRound, round] = [roundNumbers[index - 1]!, roundNumbers[index]!];
      const before = records.get(previousRound)?.get(agent.id);
      const after = records.get(round)?.get(agent.id);
      if (!before || !after) continue;
      const peerAnswers = new Map([...(records.get(previousRound) ?? new Map<string, TurnRecord>())].filter(([id]) => id !== agent.id).map(([id, record]) => [id, record.answer]));
      const differing = new Set([...peerAnswers.values()].filter((answer) => answer !== before.answer));
      const changed = after.answer !== before.answer;
      const peers = [...(records.get(previousRound) ?? new Map<string, TurnRecord>())].filter(([id]) => id !== agent.id).map(([, record]) => record.distribution);
      // Distribution debates: movement toward the peers' mean of the earlier round (own distribution left out, as a peer's answer is in Conformity).
      const gap = byDistribution && peers.length > 0 ? jsd(before.distribution, mixture(peers)) : 0;
      const distributionMoves = byDistribution
        ? {
            ...(gap > 1e-9 && { towardPeers: Math.min(1, Math.max(0, (gap - jsd(after.distribution, mixture(peers))) / gap)) }),
            retained: 1 - jsd(before.distribution, after.distribution),
          }
        : {};
      const [rightBefore, rightAfter] = [isRight(before.answer), isRight(after.answer)];
      transitions.push({
        fromRound: previousRound,
        toRound: round,
        from: before.answer,
        to: after.answer,
        changed,
        hadDifferingPeer: byDistribution ? gap > 1e-9 : differing.size > 0,
        adoptedPeerAnswer: changed && differing.has(after.answer),
        reliedOnOther: rightBefore === null ? null : !rightBefore && rightAfter === true,
        bulliedByOther: rightBefore === null ? null : rightBefore && rightAfter === false,
        ...distributionMoves,
      });
      if (changed) {
        const engaged = [...new Set(after.references.filter((ref) => ref.resolved && ref.targetAgent !== agent.id).map((ref) => ref.targetAgent))];
        const adoptedFrom = [...peerAnswers].filter(([, answer]) => answer === after.answer).map(([id]) => id);
        influence.push({ round, agentId: agent.id, from: before.answer, to: after.answer, engaged, adoptedFrom });
      }
    }
    const inDegreeByStance = emptyStances();
    let outDegree = 0;
    for (const roundRecords of records.values()) {
      for (const [authorId, record] of roundRecords) {
        for (const ref of record.references) {
          if (!ref.resolved || ref.targetAgent === authorId) continue;
          if (ref.targetAgent === agent.id) inDegreeByStance[ref.stance] += 1;
          if (authorId === agent.id) outDegree += 1;
        }
      }
    }
    return {
      agentId: agent.id,
      label: agent.label,
      firstAnswer: answers[0]?.answer ?? null,
      finalAnswer: answers.at(-1)?.answer ?? null,
      transitions,
      changes: transitions.filter((transition) => transition.changed).length,
      inDegree: Object.values(inDegreeByStance).reduce((sum, value) => sum + value, 0),
      inDegreeByStance,
      outDegree,
      ...conformityOf(transitions),
    };
  });
  return { agents, influence };
}

/**
 * Claims nobody else ever referenced (claims of the last round cannot be referenced and are left
 * out), and silence-as-acceptance candidates: an agent whose answer differed from a claim's author
 * in the claim's round, that responded in the next round without engaging the claim.
 */
export function measureClaims(transcript: DebateTranscript): { ignoredClaims: string[]; unreferenceableClaims: number; silenceCandidates: SilenceCandidate[] } {
  const records = recordsByRound(transcript);
  const roundNumbers = transcript.rounds.map((round) => round.round);
  const lastRound = roundNumbers.at(-1) ?? 0;
  const referencedBy = new Map<string, Set<string>>();
  for (const roundRecords of records.values()) {
    for (const [authorId, record] of roundRecords) {
      for (const ref of record.references) {
        if (!ref.resolved || !ref.targetClaim || ref.targetAgent === authorId) continue;
        const set = referencedBy.get(ref.targetClaim) ?? new Set<string>();
        set.add(authorId);
        referencedBy.set(ref.targetClaim, set);
      }
    }
  }
  const ignoredClaims: string[] = [];
  const silenceCandidates: SilenceCandidate[] = [];
  let unreferenceableClaims = 0;
  for (const round of roundNumbers) {
    const next = roundNumbers[roundNumbers.indexOf(round) + 1];
    for (const [authorId, record] of records.get(round) ?? []) {
      for (const claim of record.claims) {
        if (round === lastRound) {
          unreferenceableClaims += 1;
          continue;
        }
        if (!referencedBy.get(claim.id)?.size) ignoredClaims.push(claim.id);
        if (next === undefined) continue;
        for (const [agentId, nextRecord] of records.get(next) ?? []) {
          if (agentId === authorId) continue;
          const ownBefore = records.get(round)?.get(agentId);
          if (!ownBefore || ownBefore.answer === record.answer) continue;
          const engaged = nextRecord.references.some((ref) => ref.resolved && ref.targetClaim === claim.id);
          if (!engaged) silenceCandidates.push({ agentId, claimId: claim.id, claimAgentId: authorId, round: next });
        }
      }
    }
  }
  return { ignoredClaims, unreferenceableClaims, silenceCandidates };
}
