import type { DeliberationState, Recommendation } from '../../../schemas/argumentation.js';
import type { AuditRecord } from '../../../state/audit-log.js';
import { mdBlocks } from '../../markdown-blocks.js';
import { mdQuote, mdTable, mdText } from '../../markdown.js';
import { stressTestBlocker } from '../rules/stress-test.js';
import { bucketClaims, isInconclusive } from './claim-record.js';
import { deliberationChanges, type Change } from './changes.js';
import { INDENT, agreedEntry, dismissedEntry, inPlayLines, notEvaluatedItems, notEvaluatedLines, unresolvedEntry } from './claim-entries.js';
import { challengeTimeline, phaseOf } from './timeline.js';

/**
 * The full report in Markdown, the deliverable's long form (the closing summary is its short one):
 * the answer first, then each bucket's current claims, each stated once with its history under it,
 * questions, the stress test, the arbiter, what was not evaluated, and as appendices the challenges
 * and the ledger the claims cite by id. Every consultee, orchestrator and arbiter string is inert
 * Markdown (mdText, mdBlocks): none can add a heading, a link or HTML, or leave its item; fenced code
 * stays code.
 */

export interface MarkdownOptions {
  /** The deliberation's audit log: dates each challenge's judgment to its iteration in the appendix. */
  audit?: readonly AuditRecord[];
}

const full = (value: unknown) => mdText(value, Infinity);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function section(title: string, body: string | string[]): string {
  const text = Array.isArray(body) ? body.join('\n') : body;
  return text.trim() ? `## ${title}\n\n${text.trim()}\n` : '';
}

/** "medium (high on the choice, medium on the deployment)". */
export function confidenceText(r: Recommendation): string {
  const aspects = Object.entries(r.aspects ?? {}).map(([aspect, level]) => `${level} on ${aspect}`);
  return aspects.length ? `${r.confidence} (${aspects.join(', ')})` : r.confidence;
}

function recommendation(state: DeliberationState): string {
  const r = state.recommendation;
  if (!r) return '';
  const caveats = r.caveats.filter((c) => c.trim());
  const aspects = Object.entries(r.aspects ?? {}).map(([aspect, level]) => `${level} on ${full(aspect)}`);
  return section('RECOMMENDATION', [
    mdBlocks(r.text),
    '',
    `Confidence: **${r.confidence}**${aspects.length ? ` (${aspects.join(', ')})` : ''}`,
    ...(caveats.length ? ['', 'Caveats:', '', ...caveats.map((c) => `- ${full(c)}`)] : []),
  ]);
}

function stressTest(state: DeliberationState): { line?: string; section: string } {
  const st = state.stressTest;
  if (st.objection) {
    const lines = [`Objection${st.severity ? ` (${st.severity})` : ''}: ${mdBlocks(st.objection)}`, ...(st.response ? ['', `Response: ${mdBlocks(st.response)}`] : [])];
    return { section: section('STRESS TEST', lines) };
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

/** Which bucket an item the arbiter reviewed sits in now. */
const bucketOf = (state: DeliberationState, ref: string) => (['agreed', 'dismissed', 'unresolved'] as const).find((b) => state.buckets[b].some((i) => i.pointId === ref)) ?? 'not placed';

function arbitration(state: DeliberationState): string {
  const arb = state.arbitration;
  if (!arb) return '';
  const flagged = arb.items.filter((i) => i.flagged);
  // What the arbiter said of items it let stand is kept too: a reservation short of a flag.
  const noted = arb.items.filter((i) => !i.flagged && i.note?.trim());
  const lines = [
    `The arbiter${arb.reviewer ? ` (${mdText(arb.reviewer)})` : ''} flagged ${flagged.length} of ${plural(arb.items.length, 'item', 'items')} (${Math.round(arb.flaggedRatio * 100)}%).`,
    ...(flagged.length ? ['', ...flagged.map((i) => `- **${mdText(i.ref)}** (${bucketOf(state, i.ref)}): ${i.note ? full(i.note) : 'no reason given'}`)] : []),
    ...(noted.length ? ['', 'Not flagged, with a note:', '', ...notedLines(state, noted)] : []),
    ...(arb.remarks?.trim() ? ['', '**Remarks:**', '', mdBlocks(arb.remarks)] : []),
  ];
  return section('ARBITRATION', lines);
}

/** One line per note; items sharing a note (e.g. all the ones the reviewer did not mention) share the line. */
function notedLines(state: DeliberationState, noted: { ref: string; note?: string }[]): string[] {
  const byNote = new Map<string, string[]>();
  for (const i of noted) byNote.set(i.note!.trim(), [...(byNote.get(i.note!.trim()) ?? []), i.ref]);
  return [...byNote].map(([note, refs]) => `- ${refs.map((ref) => `**${mdText(ref)}** (${bucketOf(state, ref)})`).join(', ')}: ${full(note)}`);
}

/** What the consultee wrote outside its points and answers that nobody placed (a ranking, a rollout plan): kept, not evaluated. */
function otherRemarks(state: DeliberationState): string[] {
  return (state.readings ?? []).flatMap((reading) =>
    reading.pending
      .filter((p) => p.kind === 'section' && !p.resolved)
      .map((p) => `- **${mdText(p.ref)}** (iteration ${reading.iter})${p.title ? ` ${full(p.title)}` : ''}  \n${INDENT}${mdBlocks(p.text, INDENT)}`),
  );
}

/** The appendices: each challenge over the iterations, and the ledger every claim cites by id. */
function appendices(state: DeliberationState, audit: readonly AuditRecord[]): string[] {
  const { spans } = challengeTimeline(state, audit);
  const challenges = state.challenges.map((c, index) => {
    const span = spans[index]!;
    const phases = [...new Set([phaseOf(state, span.from), phaseOf(state, span.to)].filter(Boolean))].join(' → ');
    return [`${mdText(c.id)} on ${mdText(c.pointId)}`, c.type, mdText(c.objection, 160), span.outcome, `${span.from}–${span.to}`, phases || '–'];
  });
  const ledger = state.ledger.map((f) => [
    mdText(f.id),
    full(f.text),
    f.tag,
    full([f.reference, f.justification].filter(Boolean).join(' · ')),
    f.refuted ? 'refuted' : f.supersededBy ? `superseded by ${mdText(f.supersededBy)}` : 'active',
  ]);
  return [
    challenges.length ? section('CHALLENGES', mdTable(['challenge', 'type', 'objection', 'outcome', 'iterations', 'phases'], challenges)) : '',
    ledger.length ? section('LEDGER', mdTable(['fact', 'text', 'provenance', 'source', 'state'], ledger)) : '',
  ];
}

const CHANGE_VERB: Record<Change['kind'], string> = {
  replaced: 'replaced by Codex',
  conceded: 'given up by Codex',
  narrowed: 'narrowed by Codex',
  'agreed-narrower': 'agreed only as the orchestrator stated it',
};

/** Where a claim changed, by id: the reversals the answer must not hide, in the record's terms. */
function changeLines(changes: Change[]): string[] {
  return changes.map((c) => {
    const ids = c.after && c.after.point.id !== c.before.id ? `${c.before.id} → ${c.after.point.id}` : c.before.id;
    const why = c.objection ? ` after the objection ${mdText(`"${c.objection.flaw}"`, 240)}${c.objection.evidence ? ` (evidence: ${mdText(c.objection.evidence, 240)})` : ''}` : '';
    const now = c.after ? `; now: ${mdText(c.after.text, 240)}` : '';
    return `- **${mdText(ids)}:** ${CHANGE_VERB[c.kind]}${why}${now}`;
  });
}

export function deliberationMarkdown(state: DeliberationState, options: MarkdownOptions = {}): string {
  const claims = bucketClaims(state);
  const notEvaluated = notEvaluatedItems(state);
  const synthesized = state.status === 'terminated' && !!state.report;
  const stress = stressTest(state);
  const changes = deliberationChanges(state);
  const counts = [
    `${claims.agreed.length} agreed`,
    `${claims.dismissed.length} dismissed`,
    `${claims.unresolved.length} unresolved`,
    ...(notEvaluated.length ? [`${notEvaluated.length} not evaluated`] : []),
    ...(changes.length ? [`${changes.length} changed during the deliberation`] : []),
  ];
  const about = [
    `${state.mode} mode · ${state.framing} · ${plural(state.n, 'iteration', 'iterations')}${state.termination ? ` · ended by ${state.termination.reason}` : ''} · deliberation ${mdText(state.id)}  `,
    `${counts.join(' · ')}${stress.line ? '  ' : ''}`,
    ...(stress.line ? [stress.line] : []),
  ].join('\n');
  const notes = [
    !synthesized ? '_Not synthesized yet: the state as it stands._' : '',
    state.arbitration?.warning ? `**Warning:** the arbiter flagged ${Math.round(state.arbitration.flaggedRatio * 100)}% of the items; treat this result with caution.` : '',
    synthesized && isInconclusive(state) ? '**Inconclusive:** nothing was agreed or dismissed; UNRESOLVED says what would settle each item.' : '',
  ].filter(Boolean);
  return [
    ['# Deliberation report', '', mdQuote(state.question), ''].join('\n'),
    recommendation(state),
    [about, ...notes].join('\n\n') + '\n',
    section(`WHAT CHANGED (${changes.length})`, changeLines(changes)),
    section(`AGREED (${claims.agreed.length})`, claims.agreed.map((e) => agreedEntry(state, e))),
    section(`DISMISSED (${claims.dismissed.length})`, claims.dismissed.map((e) => dismissedEntry(state, e))),
    section(`UNRESOLVED (${claims.unresolved.length})`, claims.unresolved.map((e) => unresolvedEntry(state, e))),
    synthesized ? '' : section('IN PLAY', inPlayLines(state)),
    section('SURFACED QUESTIONS', state.surfacedQuestions.map((q) => `- **${mdText(q.id)}** ${full(q.text)}${q.pointId ? ` (from ${mdText(q.pointId)})` : ''}`)),
    stress.section,
    arbitration(state),
    section(`NOT EVALUATED (${notEvaluated.length})`, notEvaluatedLines(state)),
    section("THE CONSULTEE'S OTHER REMARKS (read, not placed, not evaluated)", otherRemarks(state)),
    ...appendices(state, options.audit ?? []),
  ]
    .filter(Boolean)
    .join('\n');
}
