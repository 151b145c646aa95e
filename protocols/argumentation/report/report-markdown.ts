import type { AgreedItem, DeliberationState, NotEvaluatedItem, NotEvaluatedReason, UnresolvedItem } from '../../../schemas/argumentation.js';
import type { AuditRecord } from '../../../state/audit-log.js';
import { mdParagraphs, mdQuote, mdTable, mdText } from '../../markdown.js';
import { evidenceReason } from '../core/evidence.js';
import { stressTestBlocker } from '../rules/stress-test.js';
import { challengeTimeline, phaseOf } from './timeline.js';

/**
 * The deliberation report in Markdown, answer first: the recommendation, then the buckets with
 * full point texts, questions, reviews and what was not evaluated. Every consultee, orchestrator
 * and arbiter string goes through mdText, so no reply can add a heading, a link, a code span or HTML.
 */

export interface MarkdownOptions {
  /** Append how the result came about (challenges over iterations, the ledger): the `parley report` file, not the tool result. */
  record?: boolean;
  /** The deliberation's audit log: dates each challenge's judgment to its iteration in the record. */
  audit?: readonly AuditRecord[];
}

const full = (value: unknown) => mdText(value, Infinity);
/** Lines of one list item after its first: a hard break, then the item's indentation. */
const item = (first: string, rest: string[]) => [first, ...rest].join('  \n  ');
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function section(title: string, body: string | string[]): string {
  const text = Array.isArray(body) ? body.join('\n') : body;
  return text.trim() ? `## ${title}\n\n${text.trim()}\n` : '';
}

/** A point as the report states it: a partial concession shows the narrowed claim, then what it narrowed. */
function pointLine(state: DeliberationState, ref: string, rest: string[]): string {
  const point = state.points.find((p) => p.id === ref);
  if (!point?.narrowed) return item(`- **${mdText(ref)}** ${full(point?.text ?? factText(state, ref))}`, rest);
  return item(`- **${mdText(ref)}** ${full(point.narrowed)}`, [`Narrowed from: ${full(point.text)}`, ...rest]);
}

const factText = (state: DeliberationState, id: string) => state.ledger.find((f) => f.id === id)?.text ?? '';

const CLAIM = { empirical: 'Empirical', value: 'Value', logical: 'Logical' } as const;

function agreedLines(state: DeliberationState, i: AgreedItem): string[] {
  const premises = i.premises?.length ? `, from ${i.premises.map((f) => `${mdText(f)} (${full(factText(state, f))})`).join(' and ')}` : '';
  const evidence = i.evidence ? `. Evidence (${i.evidenceType}): ${full(i.evidence)}` : '';
  const said = i.evidence && i.reason === evidenceReason(i.evidenceType) ? [] : [`Why: ${full(i.reason)}`];
  return [`${CLAIM[i.claimType]} claim${premises}${evidence}`, ...said];
}

function unresolvedLines(i: UnresolvedItem): string[] {
  const settle = [i.measurement && `measure ${full(i.measurement)}`, i.threshold && `threshold: ${full(i.threshold)}`, i.verdictChange && `verdict change: ${full(i.verdictChange)}`].filter(Boolean);
  return [`Crux (${i.status}): ${full(i.crux)}`, ...(settle.length ? [`To settle it: ${settle.join('; ')}`] : [])];
}

const NOT_EVALUATED: Record<NotEvaluatedReason, { one: string; many: string; note: boolean }> = {
  'phase-violation': { one: 'late new argument, outside what its phase admits', many: 'late new arguments, outside what their phase admits', note: false },
  'phase-closed': { one: 'new argument after its phase closed', many: 'new arguments after their phase closed', note: false },
  'non-decisive-evidence': { one: 'point without decisive evidence in CRYSTALLIZATION', many: 'points without decisive evidence in CRYSTALLIZATION', note: true },
  'unverified-fact': { one: 'consultee claim never verified', many: 'consultee claims never verified', note: false },
  'ill-formed': { one: 'point never clarified', many: 'points never clarified', note: true },
};

/** Not Evaluated grouped by why, one short line per item: what a reader needs, not every id with its boilerplate. */
function notEvaluated(state: DeliberationState): string[] {
  const groups = new Map<NotEvaluatedReason, NotEvaluatedItem[]>();
  for (const i of state.notEvaluated) groups.set(i.reason, [...(groups.get(i.reason) ?? []), i]);
  return [...groups].map(([reason, items]) => {
    const { one, many, note } = NOT_EVALUATED[reason];
    const lines = items.map((i) => {
      const text = state.points.find((p) => p.id === i.ref)?.text ?? factText(state, i.ref);
      return `  - **${mdText(i.ref)}** ${mdText(text, 160)}${note && i.note ? ` (${mdText(i.note, 160)})` : ''}`;
    });
    return [`- ${plural(items.length, one, many)} (${items.map((i) => mdText(i.ref)).join(', ')})`, ...lines].join('\n');
  });
}

/** What the consultee wrote outside its points and answers that nobody placed (a ranking, a rollout plan): kept, not evaluated. */
function otherRemarks(state: DeliberationState): string[] {
  return (state.readings ?? []).flatMap((reading) =>
    reading.pending
      .filter((p) => p.kind === 'section' && !p.resolved)
      .map((p) => item(`- **${mdText(p.ref)}** (iteration ${reading.iter})${p.title ? ` ${full(p.title)}` : ''}`, [full(p.text)])),
  );
}

function stressTest(state: DeliberationState): { line?: string; section: string } {
  const st = state.stressTest;
  if (st.objection) {
    return { section: section('STRESS TEST', item(`Objection${st.severity ? ` (${st.severity})` : ''}: ${full(st.objection)}`, st.response ? [`Response: ${full(st.response)}`] : [])) };
  }
  if (state.mode !== 'standard') return { section: '' };
  const why = st.lapsed
    ? 'asked for, but CONSTRUCTIVE ended before it was recorded: it lapsed'
    : st.required
      ? 'asked for, never answered'
      : st.warranted
        ? `warranted, but ${stressTestBlocker(state) ?? 'it would run at the next advance'}`
        : 'not warranted';
  return { line: `Stress test: ${state.status === 'active' && st.required ? 'asked for in the next prompt' : `not run (${why})`}.`, section: '' };
}

function arbitration(state: DeliberationState): string {
  const arb = state.arbitration;
  if (!arb) return '';
  const flagged = arb.items.filter((i) => i.flagged);
  // What the arbiter said of items it let stand is kept too: a reservation short of a flag.
  const noted = arb.items.filter((i) => !i.flagged && i.note?.trim());
  const bucket = (ref: string) => (['agreed', 'dismissed', 'unresolved'] as const).find((b) => state.buckets[b].some((i) => i.pointId === ref)) ?? 'not placed';
  const lines = [
    `The arbiter${arb.reviewer ? ` (${mdText(arb.reviewer)})` : ''} flagged ${flagged.length} of ${plural(arb.items.length, 'item', 'items')} (${Math.round(arb.flaggedRatio * 100)}%).`,
    ...(flagged.length ? ['', ...flagged.map((i) => `- **${mdText(i.ref)}** (${bucket(i.ref)}): ${i.note ? full(i.note) : 'no reason given'}`)] : []),
    ...(noted.length ? ['', 'Not flagged, with a note:', '', ...notedLines(noted, bucket)] : []),
    ...(arb.remarks?.trim() ? ['', '**Remarks:**', '', mdParagraphs(arb.remarks)] : []),
  ];
  return section('ARBITRATION', lines);
}

/** One line per note; items sharing a note (e.g. all the ones the reviewer did not mention) share the line. */
function notedLines(noted: { ref: string; note?: string }[], bucket: (ref: string) => string): string[] {
  const byNote = new Map<string, string[]>();
  for (const i of noted) byNote.set(i.note!.trim(), [...(byNote.get(i.note!.trim()) ?? []), i.ref]);
  return [...byNote].map(([note, refs]) => `- ${refs.map((ref) => `**${mdText(ref)}** (${bucket(ref)})`).join(', ')}: ${full(note)}`);
}

function recommendation(state: DeliberationState): string {
  const r = state.recommendation;
  if (!r) return '';
  const caveats = r.caveats.filter((c) => c.trim());
  return section('RECOMMENDATION', [mdParagraphs(r.text), '', `Confidence: **${r.confidence}**`, ...(caveats.length ? ['', 'Caveats:', '', ...caveats.map((c) => `- ${full(c)}`)] : [])]);
}

function record(state: DeliberationState, audit: readonly AuditRecord[]): string[] {
  const { spans } = challengeTimeline(state, audit);
  const challenges = state.challenges.map((c, index) => {
    const span = spans[index]!;
    const phases = [...new Set([phaseOf(state, span.from), phaseOf(state, span.to)].filter(Boolean))].join(' → ');
    return [`${mdText(c.id)} on ${mdText(c.pointId)}`, c.type, mdText(c.objection, 160), span.outcome, `${span.from}–${span.to}`, phases || '–'];
  });
  const ledger = state.ledger.map((f) => [
    mdText(f.id),
    mdText(f.text, 200),
    f.tag,
    mdText([f.reference, f.justification].filter(Boolean).join(' · '), 160),
    f.refuted ? 'refuted' : f.supersededBy ? `superseded by ${mdText(f.supersededBy)}` : 'active',
  ]);
  return [
    challenges.length ? section('CHALLENGES', mdTable(['challenge', 'type', 'objection', 'outcome', 'iterations', 'phases'], challenges)) : '',
    ledger.length ? section('LEDGER', mdTable(['fact', 'text', 'provenance', 'source', 'state'], ledger)) : '',
  ];
}

/** Bucket items in the order their points were raised, not the order they were placed. */
function byPoint<T extends { pointId: string }>(state: DeliberationState, items: T[]): T[] {
  const order = new Map(state.points.map((p, index) => [p.id, index]));
  return [...items].sort((x, y) => (order.get(x.pointId) ?? 0) - (order.get(y.pointId) ?? 0));
}

export function deliberationMarkdown(state: DeliberationState, options: MarkdownOptions = {}): string {
  const b = state.buckets;
  const synthesized = state.status === 'terminated' && !!(state.recommendation ?? state.report);
  const stress = stressTest(state);
  const counts = [`${b.agreed.length} agreed`, `${b.dismissed.length} dismissed`, `${b.unresolved.length} unresolved`, ...(state.notEvaluated.length ? [`${state.notEvaluated.length} not evaluated`] : [])];
  const about = [
    `${state.mode} mode · ${state.framing} · ${plural(state.n, 'iteration', 'iterations')}${state.termination ? ` · ended by ${state.termination.reason}` : ''} · deliberation ${mdText(state.id)}  `,
    `${counts.join(' · ')}${stress.line ? '  ' : ''}`,
    ...(stress.line ? [stress.line] : []),
  ].join('\n');
  const notes = [
    !synthesized ? '_Not synthesized yet: the state as it stands._' : '',
    state.arbitration?.warning ? `**Warning:** the arbiter flagged ${Math.round(state.arbitration.flaggedRatio * 100)}% of the items; treat this result with caution.` : '',
    synthesized && !b.agreed.length && !b.dismissed.length ? '**Inconclusive:** nothing was agreed or dismissed; UNRESOLVED says what would settle each item.' : '',
  ].filter(Boolean);
  return [
    ['# Deliberation report', '', mdQuote(state.question), ''].join('\n'),
    recommendation(state),
    [about, ...notes].join('\n\n') + '\n',
    section(`AGREED (${b.agreed.length})`, byPoint(state, b.agreed).map((i) => pointLine(state, i.pointId, agreedLines(state, i)))),
    section(`DISMISSED (${b.dismissed.length})`, byPoint(state, b.dismissed).map((i) => pointLine(state, i.pointId, [`${i.tag}: ${full(i.reason)}`]))),
    section(`UNRESOLVED (${b.unresolved.length})`, byPoint(state, b.unresolved).map((i) => pointLine(state, i.pointId, unresolvedLines(i)))),
    section('SURFACED QUESTIONS', state.surfacedQuestions.map((q) => `- **${mdText(q.id)}** ${full(q.text)}${q.pointId ? ` (from ${mdText(q.pointId)})` : ''}`)),
    stress.section,
    arbitration(state),
    section(`NOT EVALUATED (${state.notEvaluated.length})`, notEvaluated(state)),
    section("THE CONSULTEE'S OTHER REMARKS (read, not placed, not evaluated)", otherRemarks(state)),
    ...(options.record ? record(state, options.audit ?? []) : []),
  ]
    .filter(Boolean)
    .join('\n');
}
