import type { TopLevelSpec } from 'vega-lite';
import type { DeliberationState } from '../../schemas/argumentation.js';
import type { AuditRecord } from '../../state/audit-log.js';
import { challengeOutcome, challengeTimeline, phaseOf } from '../argumentation/report/timeline.js';
import { bucketClaims, isInconclusive, unblockLines, type ClaimEntry } from '../argumentation/report/claim-record.js';
import { notEvaluatedItems } from '../argumentation/report/claim-entries.js';
import { confidenceText } from '../argumentation/report/report-markdown.js';
import { bucketOf, refText } from './argumentation-data.js';
import { barChart, vegaLiteSvg } from './charts.js';
import { cards, esc, figure, header, page, table, tag } from './html.js';

const PHASE_COLORS = { CONSTRUCTIVE: '#cfe0f7', DEVELOPMENT: '#f5e3c4', CRYSTALLIZATION: '#d6efdf' } as const;
const EVENT_COLORS: Record<string, string> = { opened: '#c0392b', 'raised again': '#d1603d', defended: '#2f5da8', ended: '#1d2433' };
/** An end is a bar across the challenge's line (a path in Vega's unit square), drawn under the other events: a defense in the iteration that ended the challenge stays in sight. */
const EVENT_SHAPES = ['circle', 'square', 'triangle-up', 'M-0.22,-1.8H0.22V1.8H-0.22Z'];
const DRAWN_FIRST = 'ended';

export async function argumentationHtml(state: DeliberationState, audit: readonly AuditRecord[] = []): Promise<string> {
  const b = bucketClaims(state);
  const notEvaluated = notEvaluatedItems(state);
  const body = [
    header('Argumentation deliberation', state.question, [
      ['id', state.id],
      ['mode', state.mode],
      ['framing', state.framing],
      ['iterations', state.n],
      ['status', state.status],
      ...(state.termination ? ([['ended by', state.termination.reason]] as [string, unknown][]) : []),
    ]),
    recommendation(state),
    cards([
      ['agreed', b.agreed.length],
      ['dismissed', b.dismissed.length],
      ['unresolved', b.unresolved.length],
      ['not evaluated', notEvaluated.length],
      ['challenges', state.challenges.length],
      ['ledger facts', state.ledger.length],
    ]),
    warnings(state),
    state.material ? `<details><summary>Material given with the question</summary><blockquote>${esc(state.material)}</blockquote></details>` : '',
    '<h2>Buckets</h2>',
    bucketSection('agreed', 'Agreed', ['point', 'claim', 'evidence', 'reason'], b.agreed.map(({ item: i, ...e }) => [
      claimCell(e),
      i.claimType,
      { html: `${tag(i.evidenceType, i.evidenceType === 'n/a' ? 'na' : 'agreed').html}${i.premises?.length ? ` <span class="muted">from ${esc(i.premises.join(', '))}</span>` : ''}${i.evidence ? ` <span class="muted">${esc(e.say(i.evidence))}</span>` : ''}` },
      e.say(i.reason),
    ])),
    bucketSection('dismissed', 'Dismissed', ['point', 'tag', 'reason'], b.dismissed.map(({ item: i, ...e }) => [claimCell(e), tag(i.tag, 'dismissed'), e.say(i.reason)])),
    bucketSection('unresolved', 'Unresolved', ['point', 'status', 'crux', 'what would settle it'], b.unresolved.map(({ item: i, ...e }) => [
      claimCell(e),
      tag(i.status, 'unresolved'),
      e.say(i.crux),
      [i.measurement && `measure ${i.measurement}`, i.threshold && `threshold ${i.threshold}`, i.verdictChange].filter(Boolean).join('; ') || null,
    ])),
    bucketSection('not-evaluated', 'Not evaluated', ['ref', 'reason', 'note'], notEvaluated.map((i) => [{ html: `<b>${esc(i.ref)}</b> ${esc(refText(state, i.ref))}` }, tag(i.reason), i.note])),
    state.surfacedQuestions.length ? `<h3>Surfaced questions</h3><ul>${state.surfacedQuestions.map((q) => `<li><b>${esc(q.id)}</b> ${esc(q.text)}</li>`).join('')}</ul>` : '',
    '<h2>Challenges over iterations and phases</h2>',
    await timelineFigure(state, audit),
    challengeTable(state),
    '<h2>Points by iteration</h2>',
    await pointsFigure(state),
    '<h2>Ledger</h2>',
    ledgerTable(state),
    reviews(state),
  ].join('\n');
  return page({ title: state.question, kind: 'Argumentation', body });
}

/** The orchestrator's answer leads, as in the Markdown report. */
function recommendation(state: DeliberationState): string {
  const r = state.recommendation;
  if (!r) return '';
  const caveats = r.caveats.filter((c) => c.trim());
  return [
    '<section class="recommendation"><h2>Recommendation</h2>',
    r.text.split(/\n\s*\n/).map((p) => `<p>${esc(p.trim())}</p>`).join(''),
    `<p>Confidence: ${tag(r.confidence, r.confidence === 'high' ? 'agreed' : r.confidence === 'low' ? 'dismissed' : 'unresolved').html}${Object.keys(r.aspects ?? {}).length ? ` ${esc(confidenceText(r).slice(r.confidence.length).trim())}` : ''}</p>`,
    caveats.length ? `<p><b>Caveats</b></p><ul>${caveats.map((c) => `<li>${esc(c)}</li>`).join('')}</ul>` : '',
    '</section>',
  ].join('');
}

function warnings(state: DeliberationState): string {
  const out: string[] = [];
  if (state.arbitration?.warning) out.push(`The arbiter flagged ${Math.round(state.arbitration.flaggedRatio * 100)}% of the items: treat this result with caution.`);
  if (state.report && isInconclusive(state)) out.push(`Inconclusive: nothing was agreed or dismissed. To unblock: ${unblockLines(state).join('; ') || 'see Unresolved'}.`);
  if (!state.report) out.push('Not synthesized yet: this is the state as it stands, not a final report.');
  return out.map((text) => `<p class="warn">${esc(text)}</p>`).join('\n');
}

/** A claim as the report states it: what it now says first, then what it narrowed and the versions it replaced. */
function claimCell(e: Omit<ClaimEntry<unknown>, 'item'>): { html: string } {
  const history = [
    ...(e.point.narrowed ? [`narrowed from: ${esc(e.say(e.point.text))}`] : []),
    ...e.replaced.map((p) => `replaces ${esc(p.id)}: ${esc(e.say(p.narrowed ?? p.text))}`),
  ];
  return { html: `<b>${esc(e.point.id)}</b> ${esc(e.text)}${history.map((h) => ` <span class="muted">(${h})</span>`).join('')}` };
}

function bucketSection(cls: string, title: string, headers: string[], rows: Parameters<typeof table>[1]): string {
  const content = rows.length ? table(headers, rows) : '<p class="muted">none</p>';
  return `<div class="bucket ${cls}"><h3>${esc(title)} (${rows.length})</h3>${content}</div>`;
}

async function timelineFigure(state: DeliberationState, audit: readonly AuditRecord[]): Promise<string> {
  const { spans, events } = challengeTimeline(state, audit);
  if (spans.length === 0) return '<p class="muted">No challenges were raised.</p>';
  const last = Math.max(state.n, ...spans.map((s) => s.to));
  const bands = Array.from({ length: last }, (_, i) => ({ x0: i + 0.5, x1: i + 1.5, phase: phaseOf(state, i + 1) ?? 'quick mode (no phases)' }));
  const phases = [...new Set(bands.map((band) => band.phase))];
  const svg = await vegaLiteSvg({
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: Math.min(760, Math.max(380, 110 * last)),
    height: Math.max(60, 30 * spans.length),
    // Phases and events each get a legend of their own; shape and colour of an event share one.
    resolve: { scale: { color: 'independent', shape: 'independent' }, legend: { color: 'independent', shape: 'independent' } },
    encoding: { x: { type: 'quantitative', scale: { domain: [0.5, last + 0.5], nice: false }, axis: { values: bands.map((_, i) => i + 1), format: 'd', title: 'iteration' } } },
    layer: [
      {
        data: { values: bands },
        mark: { type: 'rect', opacity: 0.7 },
        encoding: {
          x: { field: 'x0', type: 'quantitative' },
          x2: { field: 'x1' },
          color: { field: 'phase', type: 'nominal', title: 'phase', scale: { domain: phases, range: phases.map((p) => PHASE_COLORS[p as keyof typeof PHASE_COLORS] ?? '#eceff3') }, legend: { orient: 'bottom' } },
        },
      },
      {
        data: { values: spans },
        mark: { type: 'rule', strokeWidth: 3, color: '#8a94a6' },
        encoding: { y: { field: 'label', type: 'nominal', title: null, sort: null }, x: { field: 'from', type: 'quantitative' }, x2: { field: 'to' } },
      },
      {
        data: { values: [...events].sort((x, y) => Number(y.event === DRAWN_FIRST) - Number(x.event === DRAWN_FIRST)) },
        mark: { type: 'point', filled: true, size: 110, opacity: 1 },
        encoding: {
          y: { field: 'label', type: 'nominal', title: null, sort: null },
          x: { field: 'iter', type: 'quantitative' },
          shape: { field: 'event', type: 'nominal', title: 'event', scale: { domain: Object.keys(EVENT_COLORS), range: EVENT_SHAPES }, legend: { orient: 'bottom' } },
          color: { field: 'event', type: 'nominal', title: 'event', scale: { domain: Object.keys(EVENT_COLORS), range: Object.values(EVENT_COLORS) }, legend: { orient: 'bottom' } },
        },
      },
    ],
  } as TopLevelSpec);
  return figure(svg);
}

function challengeTable(state: DeliberationState): string {
  if (state.challenges.length === 0) return '';
  return table(
    ['challenge', 'type', 'objection', 'defense', 'outcome', 'iterations'],
    state.challenges.map((c) => [
      { html: `<b>${esc(c.id)}</b> on ${esc(c.pointId)}` },
      tag(c.type, c.type === 'REJECT' ? 'dismissed' : 'unresolved'),
      c.objection,
      c.defense ?? null,
      tag(challengeOutcome(state, c), c.resolution === 'accepted' || c.status === 'conceded' || c.resolution === 'conceded-by-replacement' ? 'agreed' : c.resolution === 'rejected' ? 'dismissed' : 'unresolved'),
      `${c.openedIter}${c.defenseIter !== undefined ? ` → ${c.defenseIter}` : ''}`,
    ]),
  );
}

async function pointsFigure(state: DeliberationState): Promise<string> {
  if (state.points.length === 0) return '<p class="muted">No points were recorded.</p>';
  const counts = new Map<string, number>();
  for (const point of state.points) {
    const key = `${point.iter}\u0000${bucketOf(state, point.id)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const data = [...counts].map(([key, value]) => {
    const [iter, group] = key.split('\u0000') as [string, string];
    return { category: iter, group, value };
  }).sort((a, b) => Number(a.category) - Number(b.category));
  const colors = { agreed: '#1e7b4a', dismissed: '#a33a3a', unresolved: '#b8860b', 'not evaluated': '#8a94a6', unplaced: '#c7ceda' };
  return figure(await barChart(data, { title: 'Points raised per iteration, by where they ended', x: 'iteration', y: 'points', stack: true, colors }));
}

function ledgerTable(state: DeliberationState): string {
  if (state.ledger.length === 0) return '<p class="muted">The ledger is empty.</p>';
  return table(
    ['fact', 'text', 'provenance', 'source', 'iterations', 'state'],
    state.ledger.map((f) => [
      { html: `<b>${esc(f.id)}</b>` },
      f.text,
      tag(f.tag, f.tag === 'verified' || f.tag === 'user' ? 'agreed' : f.tag === 'codex-unverified' ? 'unresolved' : 'extend'),
      [f.reference, f.justification].filter(Boolean).join(' · ') || null,
      f.changedIter !== f.addedIter ? `${f.addedIter} → ${f.changedIter}` : String(f.addedIter),
      f.refuted ? tag('refuted', 'REFUTED') : f.supersededBy ? `superseded by ${f.supersededBy}` : f.supersedes ? `supersedes ${f.supersedes}` : f.splitFrom ? `split from ${f.splitFrom}` : 'active',
    ]),
  );
}

function reviews(state: DeliberationState): string {
  const parts: string[] = [];
  const st = state.stressTest;
  if (st.objection) parts.push(`<h3>Stress test${st.severity ? ` (${esc(st.severity)})` : ''}</h3><blockquote>${esc(st.objection)}</blockquote>${st.response ? `<p><b>Response:</b> ${esc(st.response)}</p>` : ''}`);
  const arb = state.arbitration;
  if (arb) {
    const flagged = arb.items.filter((i) => i.flagged).length;
    parts.push(`<h3>Arbitration: ${esc(flagged)} of ${esc(arb.items.length)} flagged (${esc(Math.round(arb.flaggedRatio * 100))}%)${arb.reviewer ? ` <span class="muted">by ${esc(arb.reviewer)}</span>` : ''}</h3>`);
    parts.push(table(['item', 'flagged', "arbiter's reason"], arb.items.map((i) => [i.ref, i.flagged ? tag('flagged', 'dismissed') : tag('ok', 'agreed'), i.note ?? null])));
    if (arb.remarks?.trim()) parts.push(`<p><b>Remarks</b></p><blockquote>${esc(arb.remarks.trim())}</blockquote>`);
  }
  return parts.length ? `<h2>Reviews</h2>${parts.join('\n')}` : '';
}
