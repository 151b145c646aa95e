import { analyzeDebate, sycophancyDelta, type DebateAnalysis } from '../debate/analyze.js';
import { debateConditions } from '../debate/agents.js';
import { COLLAPSE_MIN_JS, COLLAPSE_RATIO, type RoundMeasures } from '../debate/round-measures.js';
import { DebateTranscript } from '../../schemas/debate.js';
import { lineChart, type SeriesPoint } from './charts.js';
import { roundGraphSvg, STANCE_COLORS, wholeDebateDot } from './debate-graph.js';
import { agentLabel, answerText, failuresHtml, inAgentOrder, majorityText, sycophancySignals, turnsHtml } from './debate-turns.js';
import { dotToSvg } from './graphviz.js';
import { cards, esc, figure, fmt, header, legendLine, num, page, specHtml, table, tag, type Cell } from './html.js';

export async function debateHtml(input: unknown): Promise<string> {
  const transcript = DebateTranscript.parse(input);
  const analysis = analyzeDebate(transcript);
  const s = analysis.measures.summary;
  const signals = sycophancySignals(transcript, analysis);
  const body = [
    header('Debate', transcript.question, [
      ['run', transcript.runId],
      ['agents', s.agentCount],
      ['rounds', s.roundsRun],
      ['stopped by', s.stopReason],
      ...debateConditions(transcript),
      ...(transcript.groundTruth ? ([['ground truth', transcript.groundTruth]] as [string, unknown][]) : []),
    ]),
    cards([
      ['final answer', majorityText({ majorityAnswer: s.finalMajorityAnswer, tiedAnswers: s.finalTiedAnswers })],
      ['agreement', `${s.agentsInAgreement}/${s.agentCount}`],
      ['JS first → final', `${fmt(s.jsFirst, 2)} → ${fmt(s.jsFinal, 2)}`],
      ['agents changed', s.howManyAgentsChanged],
      [{ html: 'sycophancy signal <span class="sym">s_t</span>' }, signals.st],
      ['RCA judge: sycophantic', signals.rca],
      ['ignored claims', s.ignoredClaims],
      ['dominant agent', s.dominantAgent === null ? 'none' : agentLabel(transcript, s.dominantAgent)],
      ['tokens in / out', `${num(s.inputTokens)} / ${num(s.outputTokens)}`],
    ]),
    failuresHtml(transcript),
    `<p class="muted">Two different sycophancy signals: <b>s_t</b> is a measure (a round in which the agents' answer distributions converged, JS falling by more than δ = ${esc(fmt(sycophancyDelta(transcript)))} bits, while their evidence overlap fell too); the <b>RCA judge</b> reads each agent's reasoning against its answer and may call a change sycophantic. One can fire without the other.</p>`,
    s.finalCorrect === null ? '' : `<p>The final majority answer is <b>${s.finalCorrect ? 'right' : 'wrong'}</b> against the ground truth.</p>`,
    '<h2>Agents</h2>',
    agentsTable(transcript, analysis),
    '<h2>Measures per round</h2>',
    await charts(analysis),
    roundsTable(transcript, analysis),
    roundsLegend(transcript),
    '<h2>What the agents said</h2>',
    '<p class="muted">Each turn opens to its answer, confidence, reasoning, claims and references.</p>',
    turnsHtml(transcript, analysis.measures.rounds),
    '<h2>Influence across the whole debate</h2>',
    legend(),
    figure(await dotToSvg(wholeDebateDot(transcript, analysis.graph, firstAndFinal(analysis))), 'All rounds', 'graph'),
    '<h2>Debate graph per round</h2>',
    legend(' Dashed grey: an agent\'s own claim. Dotted box: a claim from an earlier round.'),
    ...(await Promise.all(transcript.rounds.map(async (round) => figure(await roundGraphSvg(transcript, analysis.graph, round.round), `Round ${round.round}`, 'graph')))),
    '<h2>Ignored claims</h2>',
    ignored(analysis),
    judges(transcript),
  ].join('\n');
  return page({ title: transcript.question, kind: 'Debate', body });
}

function legend(note = ''): string {
  const stances = (Object.keys(STANCE_COLORS) as (keyof typeof STANCE_COLORS)[]).map((stance) => `<span class="tag" style="background:#fff;border:1px solid ${STANCE_COLORS[stance]};color:${STANCE_COLORS[stance]}">${stance}</span>`);
  return `<p>${stances.join(' ')}${note ? ` <span class="muted">${esc(note.trim())}</span>` : ''}</p>`;
}

function firstAndFinal(analysis: DebateAnalysis): Map<string, { first: string | null; final: string | null }> {
  return new Map(analysis.measures.agents.map((a) => [a.agentId, { first: a.firstAnswer === null ? null : answerText(a.firstAnswer), final: a.finalAnswer === null ? null : answerText(a.finalAnswer) }]));
}

/** A round without one valid turn has no agreement, entropy, JS or overlap: a gap, not a 0. */
function measured<T>(round: RoundMeasures, value: T): T | null {
  return round.validAgents === 0 ? null : value;
}

/** One row per agent; the model goes under the agent's name and answers and degrees share a column, so the table fits a 700 px screen. */
function agentsTable(transcript: DebateTranscript, analysis: DebateAnalysis): string {
  const byId = new Map(analysis.measures.agents.map((a) => [a.agentId, a]));
  const roles = transcript.agents.some((agent) => agent.role ?? agent.persona);
  return table(
    ['agent and model', ...(roles ? ['role'] : []), 'first → final answer', 'changes', 'in / out', 'conformity', 'obstinacy'],
    transcript.agents.map((agent) => {
      const m = byId.get(agent.id);
      return [
        { html: `<b>${esc(agent.label)}</b> <span class="muted">${esc(agent.id)}</span><br><span class="muted small">${specHtml(agent.model)}</span>` },
        ...(roles ? [agent.role ?? agent.persona ?? null] : []),
        m ? `${answerText(m.firstAnswer)} → ${answerText(m.finalAnswer)}` : null,
        m?.changes,
        m ? `${num(m.inDegree)} / ${num(m.outDegree)}` : null,
        fmt(m?.conformity, 2),
        fmt(m?.obstinacy, 2),
      ];
    }),
    roles ? [3, 4, 5, 6] : [2, 3, 4, 5],
  );
}

async function charts(analysis: DebateAnalysis): Promise<string> {
  const rounds = analysis.measures.rounds;
  const series = (name: string, pick: (r: (typeof rounds)[number]) => number | null): SeriesPoint[] => rounds.map((r) => ({ x: r.round, y: measured(r, pick(r)), series: name }));
  const hasBeta = rounds.some((r) => r.beta !== null);
  const hasRho = rounds.some((r) => r.rhoBar !== null);
  const specs: Promise<string>[] = [
    lineChart(series('agreement', (r) => r.agreement), { title: 'Agreement (majority share)', x: 'round', y: 'share', yDomain: [0, 1] }),
    lineChart([...series('answers across agents', (r) => r.voteEntropy), ...series('mean agent distribution', (r) => r.meanAgentEntropy)], { title: 'Entropy (bits)', x: 'round', y: 'bits' }),
    lineChart(series('JS divergence', (r) => r.js), { title: 'JS divergence (bits)', x: 'round', y: 'bits' }),
    lineChart(series('evidence overlap', (r) => r.overlap), { title: 'Evidence overlap (Jaccard)', x: 'round', y: 'Jaccard', yDomain: [0, 1] }),
    lineChart([...series('rebuttal density', (r) => r.rebuttalDensity), ...series('reference density', (r) => r.referenceDensity)], { title: 'Engagement', x: 'round', y: 'density', yDomain: [0, 1] }),
  ];
  if (hasBeta || hasRho) {
    specs.push(lineChart([...(hasBeta ? series('beta', (r) => r.beta) : []), ...(hasRho ? series('CRIT rho bar', (r) => r.rhoBar) : [])], { title: 'Beta and CRIT rho', x: 'round', y: 'value', yDomain: [0, 1] }));
  }
  const svgs = await Promise.all(specs);
  const note = hasBeta ? '' : '<p class="muted">No beta was recorded (the PID controller was off).</p>';
  return `<div class="charts">${svgs.map((svg) => figure(svg)).join('')}</div>${note}`;
}

function roundsTable(transcript: DebateTranscript, analysis: DebateAnalysis): string {
  const rcaSycophantic = (round: number): Cell => {
    const rca = transcript.rounds.find((r) => r.round === round)?.rca;
    return rca ? rca.verdicts.filter((v) => v.verdict === 'INCONSISTENT_SYCOPHANTIC').length : null;
  };
  return table(
    ['round', 'valid', 'majority', 'agreement', 'H(votes)', 'JS', 'ΔJS', 'overlap', 's_t', 'RCA sycophantic', 'collapse', 'rebuttals', 'refs (unresolved)', 'beta'],
    analysis.measures.rounds.map((r) => [
      r.round, `${r.validAgents}${r.formatFailures + r.callFailures ? ` (${r.formatFailures + r.callFailures} failed)` : ''}`, majorityText(r), fmt(measured(r, r.agreement), 2), fmt(measured(r, r.voteEntropy)), fmt(measured(r, r.js)), fmt(r.deltaJs), fmt(measured(r, r.overlap)), r.sycophancy === null ? null : String(r.sycophancy), rcaSycophantic(r.round), r.collapse ? 'yes' : 'no', fmt(measured(r, r.rebuttalDensity), 2), `${num(r.references)} (${num(r.unresolvedReferences)})`, fmt(r.beta),
    ]),
    [0, 3, 4, 5, 6, 7, 9, 11],
  );
}

/** What the rounds table's short column names measure, and on what scale. */
function roundsLegend(transcript: DebateTranscript): string {
  return legendLine([
    ['H(votes)', 'entropy of the answers, bits (0: all alike)'],
    ['JS', "Jensen–Shannon divergence of the agents' answer distributions, bits (0: identical)"],
    ['ΔJS', 'JS minus the round before (negative: converging)'],
    ['overlap', 'evidence overlap, Jaccard 0–1'],
    ['s_t', `1 when JS fell by more than δ = ${fmt(sycophancyDelta(transcript))} bits and overlap fell`],
    ['collapse', `JS fell under ${COLLAPSE_RATIO}× the round before's (from ${COLLAPSE_MIN_JS} bits or more)`],
    ['rebuttals', 'share of agent pairs with a rebuttal, 0–1'],
    ['beta', 'contentiousness asked for, 0 (collaborative) to 1 (adversarial)'],
  ]);
}

function ignored(analysis: DebateAnalysis): string {
  const nodes = new Map(analysis.graph.nodes.map((node) => [node.id, node]));
  const { ignoredClaims, silenceCandidates } = analysis.measures;
  const claimsPart = ignoredClaims.length
    ? table(['claim', 'by', 'round', 'text'], ignoredClaims.map((id) => { const n = nodes.get(id); return [id, n?.agentId ? (nodes.get(n.agentId)?.label ?? n.agentId) : null, n?.round, n?.text]; }), [2])
    : '<p class="muted">Every claim made before the last round was engaged.</p>';
  const silence = silenceCandidates.length
    ? `<h3>Silence read as assent (candidates)</h3>${table(['agent', 'left unanswered', 'round'], silenceCandidates.map((c) => [nodes.get(c.agentId)?.label ?? c.agentId, c.claimId, c.round]), [2])}`
    : '';
  return claimsPart + silence;
}

function judges(transcript: DebateTranscript): string {
  const crit: Cell[][] = [];
  const rca: Cell[][] = [];
  for (const round of transcript.rounds) {
    if (round.crit?.status === 'failure') crit.push([round.round, null, null, null, null, `judge failed: ${round.crit.error ?? ''}`]);
    for (const score of inAgentOrder(transcript, round.crit?.scores ?? [])) {
      const p = score.pillars;
      crit.push([round.round, agentLabel(transcript, score.agentId), fmt(score.gamma, 2), fmt(score.rho, 2), p ? `${fmt(p.logicalValidity, 2)} / ${fmt(p.evidentialSupport, 2)} / ${fmt(p.alternativeConsideration, 2)} / ${fmt(p.causalAlignment, 2)}` : null, score.flags.join(', ') || null]);
    }
    if (round.rca?.status === 'failure') rca.push([round.round, null, null, null, `judge failed: ${round.rca.error ?? ''}`]);
    for (const v of inAgentOrder(transcript, round.rca?.verdicts ?? [])) rca.push([round.round, agentLabel(transcript, v.agentId), tag(v.verdict, v.verdict === 'CONSISTENT' ? 'CONSISTENT' : 'dismissed'), fmt(v.confidence, 2), v.explanation]);
  }
  const parts = ['<h2>Judges</h2>'];
  const critLegend = legendLine([
    ['gamma', "mean of validity × credibility (each 1–10) over the agent's reasons and their strongest rivals, 1–100 (higher: better reasoned)"],
    ['rho', 'mean of the four pillars, 0–1'],
  ]);
  parts.push('<h3>CRIT</h3>', crit.length ? table(['round', 'agent', 'gamma (1–100)', 'rho (0–1)', 'pillars, 0–1 (logic / evidence / alternatives / causal)', 'flags'], crit, [0, 2, 3]) + critLegend : '<p class="muted">CRIT was not run.</p>');
  parts.push('<h3>Reasoning–consistency (RCA)</h3>', rca.length ? table(['round', 'agent', 'verdict', 'confidence', 'explanation'], rca, [0, 3]) : '<p class="muted">RCA was not run.</p>');
  return parts.join('\n');
}
