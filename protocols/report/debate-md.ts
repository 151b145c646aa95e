import { analyzeDebate } from '../debate/analyze.js';
import { debateConditions } from '../debate/agents.js';
import { DebateTranscript } from '../../schemas/debate.js';
import { answerText, failuresMarkdown, inAgentOrder, majorityText, sycophancySignals, turnsMarkdownRows } from './debate-turns.js';
import { fmt, num } from './html.js';
import { mdQuote, mdSection, mdTable, mdText } from '../markdown.js';

export function debateMarkdown(input: unknown): string {
  const transcript = DebateTranscript.parse(input);
  const analysis = analyzeDebate(transcript);
  const s = analysis.measures.summary;
  const nodes = new Map(analysis.graph.nodes.map((node) => [node.id, node]));
  const label = (id: string) => mdText(nodes.get(id)?.label ?? id);
  const edges = analysis.graph.edges.filter((edge) => edge.kind !== 'authored');
  const verdicts = transcript.rounds.flatMap((round) => inAgentOrder(transcript, round.rca?.verdicts ?? []).map((v) => [round.round, label(v.agentId), v.verdict, fmt(v.confidence, 2), mdText(v.explanation, 200)]));
  const signals = sycophancySignals(transcript, analysis);
  const final = majorityText({ majorityAnswer: s.finalMajorityAnswer, tiedAnswers: s.finalTiedAnswers });
  const crit = transcript.rounds.flatMap((round) => inAgentOrder(transcript, round.crit?.scores ?? []).map((c) => [round.round, label(c.agentId), fmt(c.gamma, 2), fmt(c.rho, 2), mdText(c.flags.join(', '))]));
  return [
    `# Debate\n\n${mdQuote(transcript.question)}\n\n${debateConditions(transcript).map(([name, value]) => `${name}: ${value}`).join(' · ')}\n\n${s.agentCount} agents · ${s.roundsRun} round(s) · stopped by ${s.stopReason} · final answer **${mdText(final)}** (${s.agentsInAgreement}/${s.agentCount})${s.finalCorrect === null ? '' : s.finalCorrect ? ' · right' : ' · wrong'} · tokens ${num(s.inputTokens)} in / ${num(s.outputTokens)} out\n\nSycophancy, two signals: s_t (JS and evidence overlap both fell): ${mdText(signals.st)} · RCA judge, sycophantic verdicts: ${mdText(signals.rca)}\n`,
    failuresMarkdown(transcript),
    mdSection(
      'Rounds',
      mdTable(
        ['round', 'valid', 'majority', 'agreement', 'H(votes)', 'JS', 'overlap', 's_t', 'rebuttals', 'beta'],
        analysis.measures.rounds.map((r) => {
          const gap = r.validAgents === 0;
          return [r.round, r.validAgents, mdText(majorityText(r), 60), gap ? null : fmt(r.agreement, 2), gap ? null : fmt(r.voteEntropy), gap ? null : fmt(r.js), gap ? null : fmt(r.overlap), r.sycophancy === null ? '–' : r.sycophancy, gap ? null : fmt(r.rebuttalDensity, 2), fmt(r.beta)];
        }),
      ),
    ),
    mdSection(
      'Agents',
      mdTable(['agent', 'model', 'first', 'final', 'changes', 'in', 'out', 'conformity', 'obstinacy'], analysis.measures.agents.map((a) => [mdText(a.label), mdText(transcript.agents.find((x) => x.id === a.agentId)?.model ?? ''), mdText(answerText(a.firstAnswer), 60), mdText(answerText(a.finalAnswer), 60), a.changes, a.inDegree, a.outDegree, fmt(a.conformity, 2), fmt(a.obstinacy, 2)])),
    ),
    mdSection('What the agents said', mdTable(['round', 'agent', 'answer', 'confidence', 'reasoning'], turnsMarkdownRows(transcript))),
    mdSection('Graph', edges.map((e) => `- round ${e.round}: ${label(e.from)} **${e.stance}** ${label(e.to)}${e.count > 1 ? ` ×${e.count}` : ''}`).join('\n')),
    mdSection('Ignored claims', analysis.measures.ignoredClaims.map((id) => `- ${mdText(id)}: ${mdText(nodes.get(id)?.text ?? '', 200)}`).join('\n')),
    crit.length ? mdSection('CRIT', mdTable(['round', 'agent', 'gamma', 'rho', 'flags'], crit)) : '',
    verdicts.length ? mdSection('RCA judge', mdTable(['round', 'agent', 'verdict', 'confidence', 'explanation'], verdicts)) : '',
  ]
    .filter(Boolean)
    .join('\n');
}
