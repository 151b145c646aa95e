import { analyzeDebate } from '../debate/analyze.js';
import { DebateTranscript } from '../../schemas/debate.js';
import { measureDialogic } from '../dialogic/analyze.js';
import { barChart, lineChart } from './charts.js';
import { sweepHtml, sweepMarkdown } from './compare-sweep.js';
import { slotLabel } from './dialogic-data.js';
import { agentLabel, majorityText } from './debate-turns.js';
import { esc, figure, fmt, num, page, pct, table } from './html.js';
import { mdSection, mdTable, mdText } from '../markdown.js';
import type { ReportKind, ReportSource } from './source.js';

type Row = [string, ...(string | number | null)[]];

/** The headline measures of one protocol, one column per run. */
function measureRows(kind: ReportKind, sources: ReportSource[]): Row[] {
  if (kind === 'argumentation') {
    const states = sources.flatMap((s) => (s.kind === 'argumentation' ? [s.state] : []));
    const row = (name: string, pick: (st: (typeof states)[number]) => string | number | null): Row => [name, ...states.map(pick)];
    return [
      row('question', (st) => st.question.slice(0, 160)),
      row('mode / framing', (st) => `${st.mode} / ${st.framing}`),
      row('iterations', (st) => st.n),
      row('ended by', (st) => st.termination?.reason ?? st.status),
      row('agreed', (st) => st.buckets.agreed.length),
      row('dismissed', (st) => st.buckets.dismissed.length),
      row('unresolved', (st) => st.buckets.unresolved.length),
      row('not evaluated', (st) => st.notEvaluated.length),
      row('challenges', (st) => st.challenges.length),
      row('ledger facts (verified)', (st) => `${st.ledger.length} (${st.ledger.filter((f) => f.tag === 'verified').length})`),
      row('arbiter flagged', (st) => (st.arbitration ? pct(st.arbitration.flaggedRatio) : null)),
    ];
  }
  if (kind === 'dialogic') {
    const ms = sources.flatMap((s) => (s.kind === 'dialogic' ? [measureDialogic(s.run, s.baseline === undefined ? {} : { baseline: s.baseline })] : []));
    const row = (name: string, pick: (m: (typeof ms)[number]) => string | number | null): Row => [name, ...ms.map(pick)];
    const survivalOf = (group: Record<string, { survival_rate: number | null; submitted: number; proposed: number }>, key: string) => (group[key] ? `${group[key].submitted}/${group[key].proposed} (${pct(group[key].survival_rate)})` : null);
    return [
      row('models', (m) => `${m.models.model_a} / ${m.models.model_b}`),
      row('personas', (m) => `${m.personas.model_a} / ${m.personas.model_b}`),
      row('proposed / submitted / dropped', (m) => `${m.proposed} / ${m.submitted} / ${m.dropped}`),
      row('survival', (m) => pct(m.survival_rate)),
      row('survival, proposer A', (m) => survivalOf(m.by_proposer, 'model_a')),
      row('survival, proposer B', (m) => survivalOf(m.by_proposer, 'model_b')),
      row('survival, husserlian', (m) => survivalOf(m.by_persona, 'husserlian')),
      row('survival, heideggerian', (m) => survivalOf(m.by_persona, 'heideggerian')),
      row('immediate KEEP', (m) => pct(m.immediate_keep.rate)),
      row('mean exchanges per term', (m) => fmt(m.exchanges.mean_per_term, 2)),
      row('proposer yield rate', (m) => pct(m.proposer_replies.yield_rate)),
      row('edit distance (normalised)', (m) => (m.edit_distance ? pct(m.edit_distance.mean_normalised) : null)),
      row('negotiation cycles', (m) => m.cycles.length),
    ];
  }
  const transcripts = sources.flatMap((s) => (s.kind === 'debate' ? [DebateTranscript.parse(s.transcript)] : []));
  const ss = transcripts.map((transcript) => analyzeDebate(transcript).measures.summary);
  const rcaSycophantic = (m: (typeof ss)[number]) => (Object.keys(m.rcaVerdicts).length ? (m.rcaVerdicts.INCONSISTENT_SYCOPHANTIC ?? 0) : null);
  const dominant = ss.map((m, i) => (m.dominantAgent === null ? null : agentLabel(transcripts[i]!, m.dominantAgent)));
  const row = (name: string, pick: (m: (typeof ss)[number]) => string | number | null): Row => [name, ...ss.map(pick)];
  return [
    row('agents / rounds', (m) => `${m.agentCount} / ${m.roundsRun}`),
    row('stopped by', (m) => m.stopReason),
    row('final answer', (m) => majorityText({ majorityAnswer: m.finalMajorityAnswer, tiedAnswers: m.finalTiedAnswers })),
    row('final agreement', (m) => `${m.agentsInAgreement}/${m.agentCount}`),
    row('final answer matches the ground truth', (m) => (m.finalCorrect === null ? null : m.finalCorrect ? 'yes' : 'no')),
    row('JS first → final', (m) => `${fmt(m.jsFirst)} → ${fmt(m.jsFinal)}`),
    row('JS collapse ratio', (m) => fmt(m.jsCollapseRatioOverall)),
    row('conformity / obstinacy', (m) => `${fmt(m.conformity, 2)} / ${fmt(m.obstinacy, 2)}`),
    row('agents changed', (m) => m.howManyAgentsChanged),
    row('s_t rounds (JS and overlap fell)', (m) => m.sycophancyRounds.join(', ') || 'none'),
    row('RCA judge: sycophantic verdicts', rcaSycophantic),
    row('ignored claims', (m) => m.ignoredClaims),
    ['dominant agent', ...dominant],
    row('format / call failures', (m) => `${m.formatFailures} / ${m.callFailures}`),
    row('tokens in / out', (m) => `${num(m.inputTokens)} / ${num(m.outputTokens)}`),
  ];
}

function groups(sources: ReportSource[]): [ReportKind, ReportSource[]][] {
  const kinds: ReportKind[] = ['argumentation', 'dialogic', 'debate', 'sweep'];
  return kinds.map((kind): [ReportKind, ReportSource[]] => [kind, sources.filter((s) => s.kind === kind)]).filter(([, list]) => list.length > 0);
}

async function charts(kind: ReportKind, sources: ReportSource[]): Promise<string> {
  if (kind === 'debate') {
    const rounds = sources.flatMap((s) => (s.kind === 'debate' ? analyzeDebate(s.transcript).measures.rounds.map((r) => ({ ...r, label: s.label })) : []));
    const svgs = await Promise.all([
      lineChart(rounds.map((r) => ({ x: r.round, y: r.js, series: r.label })), { title: 'JS divergence per round (bits)', x: 'round', y: 'bits' }),
      lineChart(rounds.map((r) => ({ x: r.round, y: r.agreement, series: r.label })), { title: 'Agreement per round', x: 'round', y: 'share', yDomain: [0, 1] }),
    ]);
    return `<div class="charts">${svgs.map((svg) => figure(svg)).join('')}</div>`;
  }
  if (kind === 'dialogic') {
    const data = sources.flatMap((s) => {
      if (s.kind !== 'dialogic') return [];
      const m = measureDialogic(s.run, s.baseline === undefined ? {} : { baseline: s.baseline });
      // A proposer without terms has no survival rate: no bar (a gap), never a bar at 0.
      return Object.entries(m.by_proposer).flatMap(([who, g]) => (g.survival_rate === null ? [] : [{ category: slotLabel(who), group: s.label, value: g.survival_rate }]));
    });
    return figure(await barChart(data, { title: 'Survival rate by proposer', x: 'proposer', y: 'survival rate' }));
  }
  const data = sources.flatMap((s) =>
    s.kind === 'argumentation'
      ? (['agreed', 'dismissed', 'unresolved'] as const).map((bucket) => ({ category: bucket, group: s.label, value: s.state.buckets[bucket].length }))
      : [],
  );
  return figure(await barChart(data, { title: 'Bucket sizes', x: 'bucket', y: 'points' }));
}

function what(sources: ReportSource[]): string {
  const sweeps = sources.filter((s) => s.kind === 'sweep').length;
  const runs = sources.length - sweeps;
  return [runs ? `${runs} run${runs === 1 ? '' : 's'}` : '', sweeps ? `${sweeps} sweep${sweeps === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ');
}

export async function compareHtml(sources: ReportSource[]): Promise<string> {
  const parts = [`<header class="report"><div class="kind">Comparison</div><h1>${esc(what(sources))} side by side</h1><div class="meta">${sources.map((s) => `<span><b>${esc(s.label)}</b> ${esc(s.kind)}</span>`).join('')}</div></header>`];
  for (const [kind, list] of groups(sources)) {
    if (kind === 'sweep') {
      parts.push(...list.flatMap((s) => (s.kind === 'sweep' ? [sweepHtml(s.sweep)] : [])));
      continue;
    }
    const rows = measureRows(kind, list);
    parts.push(`<h2>${esc(kind[0]!.toUpperCase() + kind.slice(1))}</h2>`, table(['measure', ...list.map((s) => s.label)], rows, [], 'compare'), await charts(kind, list));
  }
  return page({ title: sources.map((s) => s.label).join(', '), kind: 'Comparison', body: parts.join('\n') });
}

export function compareMarkdown(sources: ReportSource[]): string {
  const parts = [`# Comparison of ${what(sources)}\n`];
  for (const [kind, list] of groups(sources)) {
    if (kind === 'sweep') {
      parts.push(...list.flatMap((s) => (s.kind === 'sweep' ? [sweepMarkdown(s.sweep)] : [])));
      continue;
    }
    const rows = measureRows(kind, list).map(([name, ...values]) => [name, ...values.map((v) => (v === null ? null : typeof v === 'number' ? v : mdText(v, 160)))]);
    parts.push(mdSection(kind[0]!.toUpperCase() + kind.slice(1), mdTable(['measure', ...list.map((s) => mdText(s.label))], rows)));
  }
  return parts.join('\n');
}
