import type { AgreedItem, DeliberationState, DismissedItem, NotEvaluatedItem, NotEvaluatedReason, Point, UnresolvedItem } from '../../../schemas/argumentation.js';
import { mdBlocks, mdInline } from '../../markdown-blocks.js';
import { mdText } from '../../markdown.js';
import { claimText, isCurrent } from '../core/claims.js';
import { evidenceReason } from '../core/evidence.js';
import { findPoint } from '../core/queries.js';
import { scratchPaths, type ScratchNeutraliser } from '../core/scratch-paths.js';
import { inPlay, refText, type ClaimEntry } from './claim-record.js';

/**
 * One claim of the report: its id and what it now says (code blocks kept), the orchestrator's grounds
 * citing facts by id, then its history (the wording it narrowed, the versions it replaced) and the
 * items folded into its answers, none of which is stated as a claim. The stale check (stale-check.ts)
 * reads these shapes: a claim is a list item `- **<id>** <text>`, history lines start with HISTORY.
 */

export const INDENT = '  ';
/** How the lines under a claim begin that quote something other than the claim: its history, its answers' items. */
export const HISTORY = { narrowed: 'Narrowed from:', replaced: 'Earlier version', parts: 'Read as part of', answered: 'The consultee answered' } as const;

const full = (value: unknown) => mdText(value, Infinity);
/** How long a quoted earlier version or answer item may run: history, not the claim. */
const HISTORY_CHARS = 240;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The claim's text, then lines of detail under it (hard breaks; a blank line after code or paragraphs). */
function entry(id: string, text: string, details: string[]): string {
  const body = mdBlocks(text, INDENT);
  if (!details.length) return `- **${mdText(id)}** ${body}`;
  // After code or a second paragraph, the details are a paragraph of their own.
  const gap = body.includes('\n\n') || /`{3,}$/.test(body) ? `\n\n${INDENT}` : `  \n${INDENT}`;
  return `- **${mdText(id)}** ${body}${gap}${details.join(`  \n${INDENT}`)}`;
}

function history(state: DeliberationState, e: ClaimEntry<unknown>): string[] {
  const lines = e.point.narrowed ? [`${HISTORY.narrowed} ${mdInline(e.say(e.point.text), HISTORY_CHARS)}`] : [];
  // Each version says who replaced the one before it, and the challenge its replacement conceded.
  const chain = [e.point, ...e.replaced];
  e.replaced.forEach((older, index) => {
    const by = chain[index]!.supersededOn;
    const was = older.was?.status ? `, ${older.was.status} then` : '';
    const challenge = state.challenges.find((c) => c.id === older.was?.challenge?.id);
    const conceding = challenge?.resolution === 'conceded-by-replacement' ? `${by ? ',' : ';'} conceding ${mdText(challenge.id)}` : '';
    lines.push(`${HISTORY.replaced} **${mdText(older.id)}** (iteration ${older.iter}${was}${by ? `; replaced by the ${by}` : ''}${conceding}): ${mdInline(e.say(claimText(older)), HISTORY_CHARS)}`);
  });
  return lines;
}

function parts(state: DeliberationState, e: ClaimEntry<unknown>): string[] {
  return e.parts.flatMap(({ answer, items }) => [
    `${HISTORY.parts} ${answer === e.point.id || findPoint(state, answer) ? `the answer to the objection to ${mdText(answer)}` : `the answer to ${mdText(answer)}`}:`,
    ...items.map((p) => `- ${mdText(p.id)} ${mdInline(e.say(claimText(p, state)), HISTORY_CHARS)}`),
  ]);
}

/**
 * What the consultee said in each answer made for the claim (or a version it replaced), in full: a claim the
 * orchestrator restated in its own words, or new content in a concession, is then still on the record.
 */
function answered(state: DeliberationState, versions: Point[], say: ScratchNeutraliser): string[] {
  const lines: string[] = [];
  for (const c of state.challenges.filter((x) => versions.some((p) => p.id === x.pointId))) {
    const said = c.answers ?? (c.defense ? [{ iter: c.defenseIter, text: c.answerOwnWords ?? c.defense }] : []);
    for (const a of said) lines.push(`${HISTORY.answered} ${mdText(c.id)}${a.iter ? ` (iteration ${a.iter})` : ''}: ${mdInline(say(a.text), Infinity)}`);
  }
  // Quick mode answers the objection to the point itself.
  for (const p of versions.filter((x) => x.defense)) lines.push(`${HISTORY.answered} the objection to ${mdText(p.id)}: ${mdInline(say(p.answerOwnWords ?? p.defense ?? ''), Infinity)}`);
  return lines;
}

const CLAIM = { empirical: 'Empirical', value: 'Value', logical: 'Logical' } as const;

function agreedDetails(i: AgreedItem, say: ScratchNeutraliser): string[] {
  const premises = i.premises?.length ? `, from ${i.premises.map((f) => mdText(f)).join(', ')}` : '';
  const evidence = i.evidence ? ` · ${i.evidenceType} evidence: ${full(say(i.evidence))}` : '';
  const said = i.evidence && i.reason === evidenceReason(i.evidenceType) ? [] : [`Why: ${full(say(i.reason))}`];
  return [`${CLAIM[i.claimType]} claim${premises}${evidence}`, ...said];
}

function unresolvedDetails(i: UnresolvedItem, say: ScratchNeutraliser): string[] {
  const settle = [i.measurement && `measure ${full(say(i.measurement))}`, i.threshold && `threshold: ${full(i.threshold)}`, i.verdictChange && `verdict change: ${full(say(i.verdictChange))}`].filter(Boolean);
  return [`Crux (${i.status}): ${full(say(i.crux))}`, ...(settle.length ? [`To settle it: ${settle.join('; ')}`] : [])];
}

function claimEntry<T>(state: DeliberationState, e: ClaimEntry<T>, details: string[]): string {
  return entry(e.point.id, e.text, [...details, ...history(state, e), ...answered(state, [e.point, ...e.replaced], e.say), ...parts(state, e)]);
}

export const agreedEntry = (state: DeliberationState, e: ClaimEntry<AgreedItem>) => claimEntry(state, e, agreedDetails(e.item, e.say));
export const dismissedEntry = (state: DeliberationState, e: ClaimEntry<DismissedItem>) => claimEntry(state, e, [`${e.item.tag}: ${full(e.say(e.item.reason))}`]);
export const unresolvedEntry = (state: DeliberationState, e: ClaimEntry<UnresolvedItem>) => claimEntry(state, e, unresolvedDetails(e.item, e.say));

const NOT_EVALUATED: Record<NotEvaluatedReason, { one: string; many: string; note: boolean }> = {
  'phase-violation': { one: 'late new argument, outside what its phase admits', many: 'late new arguments, outside what their phase admits', note: false },
  'phase-closed': { one: 'new argument after its phase closed', many: 'new arguments after their phase closed', note: false },
  'non-decisive-evidence': { one: 'point without decisive evidence in CRYSTALLIZATION', many: 'points without decisive evidence in CRYSTALLIZATION', note: true },
  'unverified-fact': { one: 'consultee claim never verified', many: 'consultee claims never verified', note: false },
  'ill-formed': { one: 'point never clarified', many: 'points never clarified', note: true },
};

/** Not Evaluated items of current claims and of facts (a replaced version is history, not listed). */
export function notEvaluatedItems(state: DeliberationState): NotEvaluatedItem[] {
  return state.notEvaluated.filter((i) => {
    const point = findPoint(state, i.ref);
    return !point || isCurrent(point);
  });
}

/** Not Evaluated grouped by why, one short line per item: what a reader needs, not every id with its boilerplate. */
export function notEvaluatedLines(state: DeliberationState): string[] {
  const say = scratchPaths(state);
  const groups = new Map<NotEvaluatedReason, NotEvaluatedItem[]>();
  for (const i of notEvaluatedItems(state)) groups.set(i.reason, [...(groups.get(i.reason) ?? []), i]);
  return [...groups].map(([reason, items]) => {
    const { one, many, note } = NOT_EVALUATED[reason];
    const lines = items.map((i) => `${INDENT}- **${mdText(i.ref)}** ${mdInline(say(refText(state, i.ref)), 160)}${note && i.note ? ` (${mdText(i.note, 160)})` : ''}`);
    return [`- ${plural(items.length, one, many)} (${items.map((i) => mdText(i.ref)).join(', ')})`, ...lines].join('\n');
  });
}

/** Before synthesis: the current claims awaiting a verdict, a bucket or an answer. */
export function inPlayLines(state: DeliberationState): string[] {
  const say = scratchPaths(state);
  return inPlay(state).map((p: Point) => entry(p.id, say(claimText(p, state)), [`(${p.status})`, ...answered(state, [p], say)]));
}
