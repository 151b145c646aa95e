import { idsIn } from './reply-answers.js';
import { LEADING_LABEL } from './reply-labels.js';
import { askedAsPoint, isClosing } from './reply-paragraphs.js';
import { supersededIn } from './reply-versions.js';

/**
 * Items after an answer that is itself an item of the reply's one numbered list ("1. Re P1.8: I concede
 * it." then "2. INFERENCE: revised defaults ..."): the consultee wrote the answer on over them, so they are
 * its items, unless one says it stands apart. Read as new points, they would leave the answer without what
 * it keeps, and late in a deliberation each would be put aside as a new argument.
 */

/** Whether `item`, following the numbered answer `answer` to `refs`, goes on with it. */
export function continuesAnswer(answer: string, refs: string[], item: string, quick: boolean): boolean {
  const opening = item.replace(/[*_`]/g, '').trim().replace(LEADING_LABEL, '');
  // A new version of an earlier point, the reply's conclusion ("final answer: ...") or a question for the user stands on its own.
  if (supersededIn(item).length > 0 || isClosing(opening) || askedAsPoint(item) !== undefined) return false;
  // An item that builds on another point or names another challenge is a point of its own (it extends P2.1).
  const named = new Set([...refs, ...idsIn(answer, quick), ...(answer.match(/\bP\d+\.\d+\b/g) ?? [])]);
  const cited = [...(item.match(/\bP\d+\.\d+\b/g) ?? []), ...idsIn(item, quick)];
  return cited.every((id) => named.has(id));
}

// "the part I keep: ...", "What I still hold from P1.3: ...", "I keep the verdict: ...".
const KEEPS = /^(?:the part (?:i|we) (?:still )?(?:keep|hold|maintain|stand by)|what (?:i|we) (?:still )?(?:keep|hold|claim|maintain|stand by)|i (?:still )?keep (?:the|my) \w+)\b/i;

/** An item of an answer that opens by saying what the answer keeps: the answer gives up only part of the claim. */
export function statesWhatIsKept(item: string): boolean {
  return KEEPS.test(item.replace(/[*_`]/g, '').trim().replace(LEADING_LABEL, ''));
}
