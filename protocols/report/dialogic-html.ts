import { normaliseAction } from '../dialogic/read-run.js';
import { barChart, type BarDatum } from './charts.js';
import { baselineColumns, dialogicView, proposerAnswers, revisionText, slotLabel, type DialogicView, type ProposerAnswer } from './dialogic-data.js';
import { cards, esc, figure, fmt, header, page, pct, table, tag } from './html.js';

const OUTCOME_COLORS = { submitted: '#1e7b4a', dropped: '#a33a3a' };
const CYCLE_COLORS = { kept: '#1e7b4a', refined: '#b8860b', dropped: '#a33a3a' };
/** Plot width of a chart in one of two columns (about 540 px on a wide screen, legend beside it). */
const CHART_WIDTH = 340;

export async function dialogicHtml(runInput: unknown, baselineInput?: unknown, audit: readonly { type: string; [key: string]: unknown }[] = []): Promise<string> {
  const view = dialogicView(runInput, baselineInput);
  const m = view.measures;
  const title = `${m.models.model_a} (${m.personas.model_a}) and ${m.models.model_b} (${m.personas.model_b})`;
  const body = [
    header('Dialogic run', title, [
      ['protocol', view.run.protocol ?? 'unknown'],
      ['temperature', view.run.temperature ?? '–'],
      ['negotiation cycles', m.cycles.length],
      ['baseline', view.baseline ? 'stored' : 'not stored'],
    ]),
    cards([
      ['terms proposed', m.proposed],
      ['submitted', m.submitted],
      ['dropped', m.dropped],
      ['survival', pct(m.survival_rate)],
      ['immediate KEEP', pct(m.immediate_keep.rate)],
      ['exchanges / term', fmt(m.exchanges.mean_per_term, 2)],
      ['proposer yields', pct(m.proposer_replies.yield_rate)],
      ['edit distance', m.edit_distance ? pct(m.edit_distance.mean_normalised) : '–'],
    ]),
    '<h2>Baselines beside the agreed dictionary</h2>',
    baselines(view),
    '<h2>Survival</h2>',
    await survival(view),
    '<h2>Cycles</h2>',
    await cycles(view),
    '<h2>Negotiation history of each term</h2>',
    histories(view, audit),
  ].join('\n');
  return page({ title, kind: 'Dialogic', body });
}

/** The first sentence of a definition, capped: the columns are for scanning, the histories hold the rest. */
function gist(text: string): string {
  const sentence = /^[\s\S]*?[.!?](?=\s|$)/.exec(text.trim())?.[0] ?? text.trim();
  return sentence.length > 130 ? `${sentence.slice(0, 129)}…` : sentence;
}

function termList(terms: { term: string; definition: string; status?: string }[]): string {
  if (terms.length === 0) return '<p class="muted">none</p>';
  return `<ol>${terms.map((t) => `<li><b>${esc(t.term)}</b>${t.status ? ` ${tag(t.status).html}` : ''}<br><span class="muted">${esc(gist(t.definition))}</span></li>`).join('')}</ol>`;
}

function baselines(view: DialogicView): string {
  const { columns, fromBaseline } = baselineColumns(view);
  const agreed = view.run.submitted_terms.map((t) => ({ term: t.term, definition: t.definition, status: t.generation_metadata.status || 'KEEP' }));
  const note = fromBaseline
    ? ''
    : '<p class="muted">No baseline.json was stored with this run: the model columns show each model\'s first-cycle terms as the run file records them (after negotiation).</p>';
  const column = (title: string, inner: string) => `<div><h3>${esc(title)}</h3>${inner}</div>`;
  return `${note}<div class="charts">${columns.map((c) => column(c.title, termList(c.terms))).join('')}${column(`Agreed dictionary (${agreed.length})`, termList(agreed))}</div>`;
}

async function survival(view: DialogicView): Promise<string> {
  const m = view.measures;
  const bars = (groups: Record<string, { submitted: number; dropped: number }>, name: (key: string) => string): BarDatum[] =>
    Object.entries(groups).flatMap(([key, s]) => [
      { category: name(key), group: 'submitted', value: s.submitted },
      { category: name(key), group: 'dropped', value: s.dropped },
    ]);
  const rows = (label: string, groups: typeof m.by_proposer, name: (key: string) => string) =>
    Object.entries(groups).map(([key, s]) => [label, name(key), s.proposed, s.submitted, s.dropped, pct(s.survival_rate)]);
  const model = (slot: string) => (slot === 'model_a' || slot === 'model_b' ? `${slotLabel(slot)} (${view.run[slot]?.name ?? slot})` : slot);
  const same = (key: string) => key;
  const charts = await Promise.all([
    barChart(bars(m.by_proposer, slotLabel), { title: 'Survival by proposer', x: 'proposer', y: 'terms', stack: true, colors: OUTCOME_COLORS, width: CHART_WIDTH }),
    barChart(bars(m.by_persona, same), { title: 'Survival by persona', x: 'persona', y: 'terms', stack: true, colors: OUTCOME_COLORS, width: CHART_WIDTH }),
  ]);
  const drops = `<p>Drops: ${esc(m.drops.by_verdict)} by the responder's verdict, ${esc(m.drops.by_concession)} by the proposer's concession, ${esc(m.drops.by_cap)} by the exchange cap${m.drops.unexplained ? `, ${esc(m.drops.unexplained)} unexplained` : ''}. Proposer answers to revisions: ${esc(m.proposer_replies.accepted)} accepted, ${esc(m.proposer_replies.counter_revised)} counter-revised, ${esc(m.proposer_replies.conceded)} conceded.</p>`;
  return [
    `<div class="grid2">${charts.map((svg) => figure(svg)).join('')}</div>`,
    table(['by', 'who', 'proposed', 'submitted', 'dropped', 'survival'], [...rows('proposer', m.by_proposer, model), ...rows('persona', m.by_persona, same)], [2, 3, 4, 5]),
    drops,
  ].join('\n');
}

async function cycles(view: DialogicView): Promise<string> {
  const rows = view.measures.cycles;
  if (rows.length === 0) return '<p class="muted">No negotiation cycles were recorded.</p>';
  const data: BarDatum[] = rows.flatMap((c) => [
    { category: String(c.cycle), group: 'kept', value: c.kept },
    { category: String(c.cycle), group: 'refined', value: c.refined },
    { category: String(c.cycle), group: 'dropped', value: c.dropped },
  ]);
  const chart = await barChart(data, { title: 'Verdicts per negotiation cycle', x: 'cycle', y: 'terms', stack: true, colors: CYCLE_COLORS, width: Math.min(2 * CHART_WIDTH, Math.max(CHART_WIDTH, 56 * rows.length)) });
  const signals = view.run.cycles.map((c) => {
    const s = (c as { exhaustion_signals?: { model_a?: boolean; model_b?: boolean } }).exhaustion_signals;
    return [c.cycle_number, c.phase, s?.model_a ? 'yes' : 'no', s?.model_b ? 'yes' : 'no'];
  });
  return [
    `<div class="grid2">${figure(chart)}${table(['cycle', 'presented', 'kept', 'refined', 'dropped'], rows.map((c) => [c.cycle, c.presented, c.kept, c.refined, c.dropped]), [0, 1, 2, 3, 4])}</div>`,
    `<details><summary>Phases and exhaustion signals</summary>${table(['cycle', 'phase', 'A exhausted', 'B exhausted'], signals, [0])}</details>`,
  ].join('\n');
}

function answerCell(answer: ProposerAnswer | undefined): { html: string } | null {
  if (!answer) return null;
  const revision = answer.counterRevision ? `<br><b>counter-revision:</b> ${esc(answer.counterRevision)}` : '';
  return { html: `${tag(answer.decision, answer.decision === 'counter_revise' ? 'counter_revised' : answer.decision === 'accept' ? 'accepted' : 'dropped').html} ${esc(answer.reason)}${revision}` };
}

function histories(view: DialogicView, audit: readonly { type: string; [key: string]: unknown }[]): string {
  const answers = proposerAnswers(view, audit);
  const note = answers.size ? '' : '<p class="muted">No audit log was found beside this run: the proposer\'s answers to revisions (and its counter-revisions) are not shown.</p>';
  return note + view.terms
    .map(({ term, list }) => {
      const meta = term.generation_metadata;
      const history = meta.negotiation_history;
      const own = answers.get(term);
      const summary = `${esc(term.term)} ${tag(list, list).html} <span class="muted">cycle ${esc(meta.cycle_introduced ?? '?')} · ${esc(slotLabel(meta.proposed_by))} · ${esc(meta.persona)} · ${history.length} exchange(s)</span>`;
      const rows = history.map((h, i) => [
        h.cycle ?? null,
        h.presented_by ? slotLabel(h.presented_by) : null,
        h.response_by ? slotLabel(h.response_by) : null,
        h.action ? tag(h.action, normaliseAction(h.action)) : null,
        h.outcome ? tag(h.outcome) : null,
        h.reason ?? null,
        revisionText(h.proposed_revision) || null,
        answerCell(own?.get(i + 1)),
      ]);
      const headers = ['cycle', 'presented by', 'response by', 'action', 'outcome', 'reason', "responder's revision", "proposer's answer"];
      const inner = `<p>${esc(term.definition)}</p>${rows.length ? table(headers, rows, [0]) : '<p class="muted">no exchanges</p>'}`;
      return `<details><summary>${summary}</summary>${inner}</details>`;
    })
    .join('\n');
}
