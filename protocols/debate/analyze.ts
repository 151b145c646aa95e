import { DebateTranscript } from '../../schemas/debate.js';
import type { RunAnalysis } from '../run-protocol.js';
import { conformityOf, measureAgents, measureClaims, type AgentMeasures, type InfluenceEvent, type SilenceCandidate } from './agent-measures.js';
import { buildGraph, graphToDot, graphToMermaid, type DebateGraph } from './graph.js';
import { round6 } from './math.js';
import { prepareForAnalysis } from './reanalysis.js';
import { answerKindOf, measureRounds, type RoundMeasures } from './round-measures.js';
import { toCsv, type CsvValue } from '../csv.js';

export type DebateSummary = {
  roundsRun: number;
  /** `distribution`: agreement, entropy, unanimity, majority and conformity were computed on the agents' distributions. */
  answerKind: RoundMeasures['answerKind'];
  stopReason: DebateTranscript['stop']['reason'];
  agentCount: number;
  finalMajorityAnswer: string | null;
  /** The answers tied for most common in the last round (then finalMajorityAnswer is null). */
  finalTiedAnswers: string[];
  finalAgreement: number;
  finalUnanimity: boolean;
  agentsInAgreement: number;
  howManyAgentsChanged: number;
  uniqueFirstAnswers: number;
  finalCorrect: boolean | null;
  reliedOnOther: number | null;
  bulliedByOther: number | null;
  /** Pooled over every agent's opportunities (distribution debates: mean towardPeers and retained). */
  conformity: number | null;
  obstinacy: number | null;
  jsFirst: number;
  jsFinal: number;
  /** JS_final / JS_first (null when JS_first is 0). */
  jsCollapseRatioOverall: number | null;
  sycophancyRounds: number[];
  ignoredClaims: number;
  silenceCandidates: number;
  formatFailures: number;
  callFailures: number;
  dominantAgent: string | null;
  rcaVerdicts: Record<string, number>;
  inputTokens: number;
  outputTokens: number;
};

export type DebateMeasures = {
  summary: DebateSummary;
  rounds: RoundMeasures[];
  agents: AgentMeasures[];
  influence: InfluenceEvent[];
  /** Agents by in-degree, highest first. */
  dominance: { agentId: string; inDegree: number }[];
  ignoredClaims: string[];
  unreferenceableClaims: number;
  silenceCandidates: SilenceCandidate[];
};

export type DebateAnalysis = RunAnalysis & { graph: DebateGraph; measures: DebateMeasures };

const DEFAULT_DELTA_S = 0.05;

/** δ of s_t: how far JS must fall (bits) in a round, with overlap falling too, for the signal to fire. */
export function sycophancyDelta(transcript: Pick<DebateTranscript, 'config'>): number {
  return typeof transcript.config.deltaS === 'number' ? transcript.config.deltaS : DEFAULT_DELTA_S;
}

export function analyzeDebate(input: unknown): DebateAnalysis {
  const kind = input && typeof input === 'object' ? (input as { kind?: unknown }).kind : undefined;
  if (kind !== 'parley.debate') throw new Error('not a debate transcript: its "kind" is not "parley.debate"');
  const transcript = prepareForAnalysis(DebateTranscript.parse(input));
  const deltaS = sycophancyDelta(transcript);
  const answerKind = answerKindOf(transcript.config);
  const rounds = measureRounds(transcript.rounds, transcript.agents.length, deltaS, answerKind);
  const { agents, influence } = measureAgents(transcript);
  const claims = measureClaims(transcript);
  const dominance = agents.map((agent) => ({ agentId: agent.agentId, inDegree: agent.inDegree })).sort((a, b) => b.inDegree - a.inDegree);
  const transitions = agents.flatMap((agent) => agent.transitions);
  const pooled = conformityOf(transitions);
  const first = rounds[0];
  const last = rounds.at(-1);
  const truth = transcript.groundTruth?.trim().toLowerCase();
  const countOf = (pick: (t: (typeof transitions)[number]) => boolean | null) => (truth === undefined ? null : transitions.filter((t) => pick(t) === true).length);
  const rcaVerdicts: Record<string, number> = {};
  for (const round of transcript.rounds) for (const verdict of round.rca?.verdicts ?? []) rcaVerdicts[verdict.verdict] = (rcaVerdicts[verdict.verdict] ?? 0) + 1;
  const summary: DebateSummary = {
    roundsRun: transcript.stop.roundsRun,
    answerKind,
    stopReason: transcript.stop.reason,
    agentCount: transcript.agents.length,
    finalMajorityAnswer: last?.majorityAnswer ?? null,
    finalTiedAnswers: last?.tiedAnswers ?? [],
    finalAgreement: last?.agreement ?? 0,
    finalUnanimity: last?.unanimity ?? false,
    agentsInAgreement: last?.agentsInAgreement ?? 0,
    howManyAgentsChanged: agents.filter((agent) => agent.changes > 0).length,
    uniqueFirstAnswers: new Set(agents.flatMap((agent) => (agent.firstAnswer === null ? [] : [agent.firstAnswer]))).size,
    finalCorrect: truth === undefined || !last?.majorityAnswer ? null : last.majorityAnswer.toLowerCase() === truth,
    reliedOnOther: countOf((t) => t.reliedOnOther),
    bulliedByOther: countOf((t) => t.bulliedByOther),
    conformity: pooled.conformity === null ? null : round6(pooled.conformity),
    obstinacy: pooled.obstinacy === null ? null : round6(pooled.obstinacy),
    jsFirst: first?.js ?? 0,
    jsFinal: last?.js ?? 0,
    jsCollapseRatioOverall: first && last && first.js > 0 ? round6(last.js / first.js) : null,
    sycophancyRounds: rounds.filter((round) => round.sycophancy === 1).map((round) => round.round),
    ignoredClaims: claims.ignoredClaims.length,
    silenceCandidates: claims.silenceCandidates.length,
    formatFailures: rounds.reduce((sum, round) => sum + round.formatFailures, 0),
    callFailures: rounds.reduce((sum, round) => sum + round.callFailures, 0),
    dominantAgent: dominance[0] && dominance[0].inDegree > 0 && dominance[0].inDegree !== dominance[1]?.inDegree ? dominance[0].agentId : null,
    rcaVerdicts,
    inputTokens: transcript.usage.inputTokens,
    outputTokens: transcript.usage.outputTokens,
  };
  const measures: DebateMeasures = { summary, rounds, agents, influence, dominance, ...claims };
  return { graph: buildGraph(transcript), measures, table: renderTable(measures) };
}

/** Identity bias (Choi et al.): (Conformity - Obstinacy) identity-visible minus the same anonymised. */
export function identityBias(identityVisible: DebateAnalysis, anonymised: DebateAnalysis): number | null {
  const gap = (analysis: DebateAnalysis) => {
    const { conformity, obstinacy } = analysis.measures.summary;
    return conformity === null || obstinacy === null ? null : conformity - obstinacy;
  };
  const [visible, hidden] = [gap(identityVisible), gap(anonymised)];
  return visible === null || hidden === null ? null : round6(visible - hidden);
}

export function exportGraph(analysis: DebateAnalysis, format: 'json' | 'dot' | 'mermaid'): string {
  if (format === 'dot') return graphToDot(analysis.graph);
  if (format === 'mermaid') return graphToMermaid(analysis.graph);
  return JSON.stringify(analysis.graph, null, 2) + '\n';
}

const ROUND_COLUMNS = [
  'round', 'validAgents', 'formatFailures', 'callFailures', 'majorityAnswer', 'agreement', 'agentsInAgreement', 'unanimity',
  'voteEntropy', 'meanAgentEntropy', 'js', 'overlap', 'deltaJs', 'deltaOverlap', 'sycophancy', 'jsCollapseRatio', 'collapse',
  'rebuttalDensity', 'referenceDensity', 'references', 'unresolvedReferences', 'rhoBar', 'beta', 'tiedAnswers', 'answerKind',
] as const satisfies readonly (keyof RoundMeasures)[];

/** `option=weight|option=weight`, options sorted by code unit, weights rounded to 6 decimals; empty when absent. */
function weightsCell(weights: Record<string, number> | null | undefined): CsvValue {
  if (!weights) return null;
  return Object.keys(weights)
    .sort()
    .map((option) => `${option}=${round6(weights[option]!)}`);
}

// Object-valued measures flattened to one cell each; appended after ROUND_COLUMNS so earlier columns keep their places.
const FLAT_ROUND_COLUMNS: readonly [string, (round: RoundMeasures) => CsvValue][] = [
  ['consensus', (round) => weightsCell(round.consensus)],
  ['confidenceVoteAnswer', (round) => round.confidenceVote?.answer],
  ['confidenceVoteTied', (round) => round.confidenceVote?.tiedAnswers],
  ['confidenceVoteWeights', (round) => weightsCell(round.confidenceVote?.weights)],
];

const AGENT_COLUMNS = ['agentId', 'label', 'firstAnswer', 'finalAnswer', 'changes', 'inDegree', 'outDegree', 'conformity', 'obstinacy'] as const satisfies readonly (keyof AgentMeasures)[];

/**
 * One CSV table: per-round measures (default) or per-agent measures. Round rows end with the flat
 * forms of `consensus` and `confidenceVote` (FLAT_ROUND_COLUMNS); a missing value is an empty cell.
 */
export function measuresToCsv(analysis: DebateAnalysis, table: 'rounds' | 'agents' = 'rounds'): string {
  if (table === 'agents') {
    return toCsv(AGENT_COLUMNS, analysis.measures.agents.map((agent) => AGENT_COLUMNS.map((column) => agent[column] as CsvValue)));
  }
  const header = [...ROUND_COLUMNS, ...FLAT_ROUND_COLUMNS.map(([name]) => name)];
  const rows = analysis.measures.rounds.map((round) => [
    ...ROUND_COLUMNS.map((column) => round[column] as CsvValue),
    ...FLAT_ROUND_COLUMNS.map(([, cell]) => cell(round)),
  ]);
  return toCsv(header, rows);
}

function renderTable(measures: DebateMeasures): string {
  const header = 'round  valid  majority        agree  H(votes)  JS      Ov      s_t  rebut';
  const lines = [header];
  for (const round of measures.rounds) {
    lines.push(
      [
        String(round.round).padEnd(6),
        String(round.validAgents).padEnd(6),
        (round.majorityAnswer ?? (round.tiedAnswers.length ? `tie: ${round.tiedAnswers.join('|')}` : '-')).slice(0, 15).padEnd(15),
        round.agreement.toFixed(2).padEnd(6),
        round.voteEntropy.toFixed(3).padEnd(9),
        round.js.toFixed(3).padEnd(7),
        round.overlap.toFixed(3).padEnd(7),
        String(round.sycophancy ?? '-').padEnd(4),
        round.rebuttalDensity.toFixed(3),
      ].join(' '),
    );
  }
  for (const round of measures.rounds) {
    const vote = round.confidenceVote;
    if (vote) lines.push(`round ${round.round} confidence-weighted vote (ReConcile, ${vote.voters} voter(s)): ${vote.answer ?? `tie: ${vote.tiedAnswers.join('|')}`}`);
  }
  const s = measures.summary;
  lines.push(
    '',
    `stop: ${s.stopReason} after ${s.roundsRun} round(s); final answer ${s.finalMajorityAnswer ?? (s.finalTiedAnswers.length ? `tie: ${s.finalTiedAnswers.join('|')}` : '-')} (${s.agentsInAgreement}/${s.agentCount} agree)`,
    `changed: ${s.howManyAgentsChanged}; conformity ${s.conformity ?? '-'}; obstinacy ${s.obstinacy ?? '-'}; ignored claims ${s.ignoredClaims}; silence candidates ${s.silenceCandidates}`,
  );
  return lines.join('\n') + '\n';
}
