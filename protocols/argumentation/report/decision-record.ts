import type { DeliberationState } from '../../../schemas/argumentation.js';
import { mdBlocks, mdInline } from '../../markdown-blocks.js';
import { mdText } from '../../markdown.js';
import { activeFacts } from '../core/queries.js';
import { bucketClaims, isInconclusive } from './claim-record.js';
import { confidenceText } from './report-markdown.js';

/**
 * The deliberation as an architecture decision record (MADR 4: https://adr.github.io/madr/), for
 * users who keep ADRs in their repository. Rendered from the same record as the report, and no more
 * than it holds: the context is the question and the user's constraints; the options are the
 * recommendation and the alternatives the deliberation weighed and set aside or left open (its
 * dismissed and unresolved claims); the decision is the recommendation; the consequences are the
 * agreed claims, the caveats, the unresolved cruxes and the open questions. Strings are inert
 * Markdown, as in the report.
 */

const full = (value: unknown) => mdText(value, Infinity);
const CLAIM_CHARS = 300;

/** The title: the question's first line, short. */
function title(question: string): string {
  const first = question.trim().split('\n')[0] ?? '';
  return mdText(first, 120);
}

/** The recommendation's first sentence (or line) names the chosen option. */
function chosenText(text: string): string {
  const first = text.trim().split('\n')[0] ?? '';
  return /^(.+?[.!?])(?:\s|$)/.exec(first)?.[1] ?? first;
}

const chosen = (text: string) => mdText(chosenText(text), 200).replace(/"/g, '\\"');

export function decisionRecordMarkdown(state: DeliberationState): string {
  const r = state.recommendation;
  if (!r || !state.report) throw new Error(`deliberation ${state.id} is not synthesized yet: its decision record exists once it has a recommendation`);
  const claims = bucketClaims(state);
  const drivers = activeFacts(state).filter((f) => f.tag === 'user');
  const consulted = ['the consultee (Codex)', ...(state.arbitration ? [`an arbiter${state.arbitration.reviewer ? ` (${state.arbitration.reviewer})` : ''}`] : [])];
  const options = [
    `* ${chosen(r.text)} (chosen)`,
    ...claims.dismissed.map((e) => `* ${mdText(e.point.id)} ${mdInline(e.text, CLAIM_CHARS)} (set aside, ${e.item.tag}: ${full(e.item.reason)})`),
    ...claims.unresolved.map((e) => `* ${mdText(e.point.id)} ${mdInline(e.text, CLAIM_CHARS)} (left open, ${e.item.status})`),
  ];
  const consequences = [
    ...claims.agreed.map((e) => `* Good, because ${mdText(e.point.id)} ${mdInline(e.text, CLAIM_CHARS)}`),
    ...r.caveats.filter((c) => c.trim()).map((c) => `* Bad, because ${full(c)}`),
    ...claims.unresolved.map((e) => `* Neutral, because ${mdText(e.point.id)} is unresolved: ${full(e.item.crux)}${e.item.measurement ? `; settle it by measuring ${full(e.item.measurement)}${e.item.threshold ? ` against ${full(e.item.threshold)}` : ''}` : ''}`),
    ...state.surfacedQuestions.map((q) => `* Neutral, because the question ${mdText(q.id)} is open: ${full(q.text)}`),
  ];
  const flagged = state.arbitration?.items.filter((i) => i.flagged) ?? [];
  return [
    '---',
    `status: ${isInconclusive(state) ? 'proposed' : 'accepted'}`,
    `date: ${state.updatedAt.slice(0, 10)}`,
    `consulted: ${JSON.stringify(consulted.join(', '))}`,
    '---',
    '',
    `# ${title(state.question)}`,
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
    `Chosen option: "${chosen(r.text)}", because it is the recommendation the deliberation reached, with ${confidenceText(r)} confidence${claims.agreed.length ? ` on ${claims.agreed.length} agreed claim${claims.agreed.length === 1 ? '' : 's'}` : ''}.`,
    // The whole recommendation, when it says more than the option's name.
    ...(r.text.trim() === chosenText(r.text) ? [] : ['', mdBlocks(r.text)]),
    ...(consequences.length ? ['', '### Consequences', '', ...consequences] : []),
    ...(state.arbitration
      ? ['', '### Confirmation', '', `A fresh reviewer checked every placed claim and flagged ${flagged.length} of ${state.arbitration.items.length}${flagged.length ? `: ${flagged.map((i) => `${mdText(i.ref)} (${i.note ? full(i.note) : 'no reason given'})`).join('; ')}` : ''}.`]
      : []),
    '',
    '## More Information',
    '',
    `Deliberation ${mdText(state.id)} (${state.mode} mode, ${state.n} iteration${state.n === 1 ? '' : 's'}${state.termination ? `, ended by ${state.termination.reason}` : ''}). The full report, with the evidence for each claim and the ledger it cites: \`parley report\` on its state file, or the resource parley://deliberations/${mdText(state.id)}/report.md.`,
    '',
  ].join('\n');
}
