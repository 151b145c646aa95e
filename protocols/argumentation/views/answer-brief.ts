import type { DeliberationState } from '../../../schemas/argumentation.js';
import { isInconclusive } from '../report/claim-record.js';
import { plainLines } from '../report/plain-lines.js';
import { confidenceText } from '../report/report-markdown.js';

/**
 * What the orchestrator's answer to the user needs, in words the user can read: the decision; the facts
 * it turns on, each with who checked it and how; what changed during the deliberation (Codex's first
 * position, what overturned it, where it ended); what was ruled out and what stays open; the questions
 * only the user can answer; the caveats. No ids, paths, labels or sentences cut in the middle: the answer
 * is the orchestrator's to write, and the record (ids, versions, evidence) is one line for the audit.
 */
export interface AnswerBrief {
  decision?: string;
  confidence?: string;
  turnsOn: string[];
  changed?: string[];
  ruledOut?: string[];
  open?: string[];
  askUser?: string[];
  caveats?: string[];
  warnings?: string[];
  reviewer?: string[];
  more?: string;
  record: string;
}

/** The brief stays a brief: past this many bytes the rest of each long list is counted, not shown. */
const BRIEF_BYTES = 6000;

/** Every list keeps its first lines whatever the budget: an answer needs some of each, the rest is in the record. */
const ALWAYS_SHOWN = 4;

/**
 * The lists share what the budget leaves after the decision and caveats, in order of what the answer needs
 * most; past it, a list keeps its first few lines and the rest are counted, never cut.
 */
function withinBudget(brief: AnswerBrief): AnswerBrief {
  const lists = ['askUser', 'turnsOn', 'changed', 'ruledOut', 'open', 'reviewer'] as const;
  let left = BRIEF_BYTES - Buffer.byteLength(JSON.stringify({ ...brief, ...Object.fromEntries(lists.map((k) => [k, []])) }));
  const dropped: string[] = [];
  const out: AnswerBrief = { ...brief };
  for (const key of lists) {
    const lines = brief[key];
    if (!lines) continue;
    const kept = lines.filter((line, i) => {
      const size = Buffer.byteLength(JSON.stringify(line)) + 1;
      if (i >= ALWAYS_SHOWN && size > left) return false;
      left -= size;
      return true;
    });
    if (kept.length < lines.length) dropped.push(`${lines.length - kept.length} ${LIST_NAMES[key]}`);
    if (key === 'turnsOn') out.turnsOn = kept;
    else out[key] = kept.length ? kept : undefined;
  }
  return dropped.length ? { ...out, more: `not shown here for length, in the full record: ${dropped.join(', ')}` } : out;
}

const LIST_NAMES = { askUser: 'questions', turnsOn: 'agreed claims', changed: 'changes', ruledOut: 'claims ruled out', open: 'open claims', reviewer: "reviewer's notes" };

export function answerBrief(state: DeliberationState): AnswerBrief {
  const r = state.recommendation;
  const { turnsOn, changed, ruledOut, open, askUser, caveats, reviewer } = plainLines(state);
  const warnings = [
    state.arbitration?.warning ? `a fresh reviewer flagged ${Math.round(state.arbitration.flaggedRatio * 100)}% of the placements: treat this result with caution` : '',
    isInconclusive(state) ? 'inconclusive: nothing was agreed or ruled out; what would settle each open claim is under open' : '',
    state.stressTest.lapsed ? 'the stress test the stakes called for did not run' : '',
  ].filter(Boolean);
  const ended = state.termination ? `, ended by ${state.termination.reason}` : '';
  return withinBudget({
    ...(r ? { decision: r.text.trim(), confidence: confidenceText(r) } : {}),
    turnsOn,
    ...(changed.length ? { changed } : {}),
    ...(ruledOut.length ? { ruledOut } : {}),
    ...(open.length ? { open } : {}),
    ...(askUser.length ? { askUser } : {}),
    ...(caveats.length ? { caveats } : {}),
    ...(warnings.length ? { warnings } : {}),
    ...(reviewer ? { reviewer } : {}),
    record: `${state.mode} mode, ${state.n} iteration${state.n === 1 ? '' : 's'}${ended}; the full record (ids, versions, evidence)`,
  });
}
