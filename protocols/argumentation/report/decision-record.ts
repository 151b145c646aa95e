import type { DeliberationState } from '../../../schemas/argumentation.js';
import { mdBlocks } from '../../markdown-blocks.js';
import { mdText } from '../../markdown.js';
import { activeFacts } from '../core/queries.js';
import { bucketClaims, isInconclusive } from './claim-record.js';
import { plainLines } from './plain-lines.js';
import { plainWords } from './plain-words.js';
import { confidenceText } from './report-markdown.js';

/**
 * The deliberation as an architecture decision record (MADR 4: https://adr.github.io/madr/), for
 * users who keep ADRs in their repository, in the words the team reads (the same plain lines as the
 * answer brief, all of them: no ids, labels, scratch paths or claims cut mid-sentence); the ids and
 * evidence stay in the report it names. The title is the decision; the context is the question and
 * the user's constraints; the options are the recommendation and the claims the deliberation ruled
 * out; the consequences are the agreed claims with who checked them, the caveats, what
 * stays open and the questions for the team; what changed during the deliberation comes last. Strings
 * are inert Markdown, as in the report.
 */

const full = (value: unknown) => mdText(value, Infinity);
/** A title is a few words; a decision's first sentence longer than this is cut at its last clause that fits. */
const TITLE_CHARS = 100;

/** The recommendation's first sentence (or line) names the chosen option. */
function chosenText(text: string): string {
  const first = text.trim().split('\n')[0] ?? '';
  return /^(.+?[.!?])(?:\s|$)/.exec(first)?.[1] ?? first;
}

/** The record's title: the decision, in its first clause when its first sentence is long; never the question. */
export function decisionTitle(state: DeliberationState, text: string): string {
  const sentence = plainWords(state, chosenText(text)).replace(/[.!]$/, '');
  if (sentence.length <= TITLE_CHARS) return sentence;
  const head = sentence.slice(0, TITLE_CHARS);
  const clause = Math.max(head.lastIndexOf(': '), head.lastIndexOf('; '), head.lastIndexOf(', '), head.lastIndexOf(' — '));
  return head.slice(0, clause > TITLE_CHARS / 3 ? clause : head.lastIndexOf(' ')).trim();
}

export function decisionRecordMarkdown(state: DeliberationState): string {
  const r = state.recommendation;
  if (!r || !state.report) throw new Error(`deliberation ${state.id} is not synthesized yet: its decision record exists once it has a recommendation`);
  const agreed = bucketClaims(state).agreed.length;
  const lines = plainLines(state);
  const drivers = activeFacts(state).filter((f) => f.tag === 'user');
  const consulted = ['Codex (the consultee)', ...(state.arbitration ? [`a fresh reviewer${state.arbitration.reviewer ? ` (${state.arbitration.reviewer})` : ''}`] : [])];
  const decision = decisionTitle(state, r.text);
  const options = [`* ${full(decision)} (chosen)`, ...lines.ruledOut.map((l) => `* ${full(l)}`)];
  const consequences = [
    ...lines.turnsOn.map((l) => `* Good, because ${full(l)}`),
    ...lines.caveats.map((l) => `* Bad, because ${full(l)}`),
    ...lines.open.map((l) => `* Neutral, because it stays open: ${full(l)}`),
    ...lines.askUser.map((q) => `* Neutral, because the team has still to answer: ${full(q)}`),
  ];
  return [
    '---',
    `status: ${isInconclusive(state) ? 'proposed' : 'accepted'}`,
    `date: ${state.updatedAt.slice(0, 10)}`,
    `consulted: ${JSON.stringify(consulted.join(', '))}`,
    '---',
    '',
    `# ${full(decision)}`,
    '',
    '## Context and Problem Statement',
    '',
    mdBlocks(state.question),
    ...(state.material?.trim() ? ['', 'Material given with the question:', '', mdBlocks(state.material)] : []),
    ...(drivers.length ? ['', '## Decision Drivers', '', ...drivers.map((f) => `* ${full(f.text)}`)] : []),
    '',
    '## Considered Options',
    '',
    ...options,
    '',
    '## Decision Outcome',
    '',
    `Chosen option: "${full(decision).replace(/"/g, '\\"')}", because it is the recommendation the deliberation reached, with ${confidenceText(r)} confidence${agreed ? ` on ${agreed} agreed claim${agreed === 1 ? '' : 's'}` : ''}.`,
    // The whole recommendation, when it says more than the title.
    ...(plainWords(state, r.text.trim()).replace(/[.!]$/, '') === decision ? [] : ['', mdBlocks(r.text)]),
    ...(consequences.length ? ['', '### Consequences', '', ...consequences] : []),
    ...(lines.reviewer ? ['', '### Confirmation', '', ...lines.reviewer.map((l) => `* ${full(l)}`)] : []),
    '',
    '## More Information',
    '',
    ...(lines.changed.length ? ['What changed during the deliberation:', '', ...lines.changed.map((l) => `* ${full(l)}`), ''] : []),
    `Deliberation ${mdText(state.id)} (${state.mode} mode, ${state.n} iteration${state.n === 1 ? '' : 's'}${state.termination ? `, ended by ${state.termination.reason}` : ''}). The full report, with the evidence for each claim and the ledger it cites: \`parley report\` on its state file, or the resource parley://deliberations/${mdText(state.id)}/report.md.`,
    '',
  ].join('\n');
}
