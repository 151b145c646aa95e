import type { AgreedItem, DeliberationState, EvidenceType } from '../../../schemas/argumentation.js';
import { withoutFences } from '../../markdown-blocks.js';
import { bucketClaims, isInconclusive, unblockLines, type ClaimEntry } from '../report/claim-record.js';
import { notEvaluatedItems } from '../report/claim-entries.js';
import { confidenceText } from '../report/report-markdown.js';
import { scratchPaths, type ScratchNeutraliser } from '../core/scratch-paths.js';

/**
 * The deliverable's short form: what the closing result and the status of a finished deliberation
 * return, for the orchestrator to hand to the user as it is. JSON of short one-line strings (Claude
 * Code shows structured content as JSON, where Markdown arrives escaped): the answer, confidence and
 * caveats, each bucket's current claims one line each with its id, the open questions, what the
 * arbiter flagged. The full report (a file, a resource) has the rest.
 */

export interface ClosingSummary {
  question: string;
  answer?: string;
  confidence?: string;
  caveats?: string[];
  warnings?: string[];
  agreed: string[];
  dismissed: string[];
  unresolved: string[];
  notEvaluated?: string[];
  questions?: string[];
  arbiter?: string[];
  record: string;
}

/** How long a line may run: a claim's gist, not the claim (the full report states it whole). */
const CLAIM_CHARS = 150;
/** A question for the user, an arbiter's reason: each a sentence or two. */
const NOTE_CHARS = 300;
const ANSWER_CHARS = 1500;
/** The user's question and the orchestrator's caveats are handed back whole (a runaway one is still cut). */
const OWN_WORDS_CHARS = 1000;

/** One line, cut at a word near `max` with an ellipsis. */
function oneLine(value: string, max: number): string {
  const line = withoutFences(value).replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

/** "P5.2 <claim> (replaces P4.5) — <why>". */
function claimLine(e: ClaimEntry<unknown>, why: string): string {
  const replaces = e.replaced.length ? ` (replaces ${e.replaced.map((p) => p.id).join(', ')})` : '';
  return `${e.point.id} ${oneLine(e.text, CLAIM_CHARS)}${replaces}${why ? ` — ${why}` : ''}`;
}

const GROUND: Record<EvidenceType, string> = { 'n/a': '', deduction: '', execution: 'execution evidence', textual: 'textual evidence' };

/** What an agreed claim stands on, in a few words: the facts it follows from are cited by id. */
function agreedWhy({ item }: ClaimEntry<AgreedItem>): string {
  if (item.claimType === 'value') return 'value judgment';
  if (item.premises?.length) return `follows from ${item.premises.join(', ')}`;
  return GROUND[item.evidenceType] || `${item.claimType} claim`;
}

function arbiterLines(state: DeliberationState, say: ScratchNeutraliser): string[] | undefined {
  const arb = state.arbitration;
  if (!arb) return undefined;
  const flagged = arb.items.filter((i) => i.flagged);
  return [
    `flagged ${flagged.length} of ${arb.items.length}`,
    ...flagged.map((i) => `${i.ref}: ${i.note ? oneLine(say(i.note), NOTE_CHARS) : 'no reason given'}`),
    ...(arb.remarks?.trim() ? [`remarks: ${oneLine(say(arb.remarks), 2 * NOTE_CHARS)}`] : []),
  ];
}

function notEvaluatedLines(state: DeliberationState): string[] | undefined {
  const groups = new Map<string, string[]>();
  for (const i of notEvaluatedItems(state)) groups.set(i.reason, [...(groups.get(i.reason) ?? []), i.ref]);
  return groups.size ? [...groups].map(([reason, refs]) => `${reason}: ${refs.join(', ')}`) : undefined;
}

export function closingSummary(state: DeliberationState): ClosingSummary {
  const claims = bucketClaims(state);
  // The consultee's scratch paths are said as such before any line is cut: a cut path would no longer be recognised.
  const say = scratchPaths(state);
  const line = (text: string, max: number) => oneLine(say(text), max);
  const r = state.recommendation;
  const caveats = r?.caveats.filter((c) => c.trim()).map((c) => line(c, OWN_WORDS_CHARS));
  const warnings = [
    state.arbitration?.warning ? `the arbiter flagged ${Math.round(state.arbitration.flaggedRatio * 100)}% of the items: treat this result with caution` : '',
    isInconclusive(state) ? `inconclusive: nothing was agreed or dismissed; to unblock: ${unblockLines(state).map((l) => line(l, 200)).join('; ') || 'see unresolved'}` : '',
  ].filter(Boolean);
  const questions = state.surfacedQuestions.map((q) => `${q.id} ${line(q.text, NOTE_CHARS)}`);
  const ended = state.termination ? `, ended by ${state.termination.reason}` : '';
  return {
    question: line(state.question, OWN_WORDS_CHARS),
    ...(r ? { answer: line(r.text, ANSWER_CHARS), confidence: confidenceText(r) } : {}),
    ...(caveats?.length ? { caveats } : {}),
    ...(warnings.length ? { warnings } : {}),
    agreed: claims.agreed.map((e) => claimLine(e, agreedWhy(e))),
    dismissed: claims.dismissed.map((e) => claimLine(e, `${e.item.tag}: ${line(e.item.reason, 120)}`)),
    unresolved: claims.unresolved.map((e) => claimLine(e, `${e.item.status}: ${line(e.item.crux, 120)}`)),
    ...(notEvaluatedLines(state) ? { notEvaluated: notEvaluatedLines(state) } : {}),
    ...(questions.length ? { questions } : {}),
    ...(arbiterLines(state, say) ? { arbiter: arbiterLines(state, say) } : {}),
    record: `deliberation ${state.id}: ${state.mode} mode, ${state.framing}, ${state.n} iteration${state.n === 1 ? '' : 's'}${ended}`,
  };
}
