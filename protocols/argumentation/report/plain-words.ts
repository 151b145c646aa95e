import type { DeliberationState } from '../../../schemas/argumentation.js';
import { withoutFences } from '../../markdown-blocks.js';
import { findPoint, sentences } from '../core/queries.js';
import { scratchPaths, type ScratchNeutraliser } from '../core/scratch-paths.js';

/**
 * Text for the user, who never saw the record: no point, fact or challenge ids, no reply labels, no
 * absolute paths (a scratch file is named by its file name), no parley URIs or deliberation ids, and
 * never a sentence cut in the middle. Only ids this deliberation has are rewritten, so "F1 score" or a
 * "C2" in someone's code stays as written.
 */

const ID = String.raw`(?:P\d+\.\d+|[FC]\d+)`;
const RANGE = String.raw`${ID}(?:\s*[–-]\s*${ID})?`;
// "(P1.2)", "(see F9, F10)", "(F9-F11; node:22-alpine has libstdc++, F11)" keeps only its words.
const CITATION = new RegExp(String.raw`\s*\((?:(?:see|per|cf\.?|from|as in|by|in)\s+)?${RANGE}(?:\s*(?:,|;|and|&)\s*${RANGE})*\)`, 'g');
const RANGE_ONLY = new RegExp(String.raw`\b(${ID})\s*[–/-]\s*(${ID})\b`, 'g');
const ANY_ID = new RegExp(String.raw`\b${ID}\b(?![.\d]*\d)`, 'g');
// "EVIDENCE:", "INFERENCE —", "EVIDENCE + INFERENCE —", "INFERENCE (from F16) —", "INFERENCE (from item 4 and F2):",
// "INFERENCE (snippet) + EVIDENCE (line splitting):": each label with what it says it rests on.
const LABEL_START = /^\s*(?:\*\*)?(?:EVIDENCE|INFERENCE|GUESS)(?:\s*\([^()]*\))?(?:\s*\+\s*(?:EVIDENCE|INFERENCE|GUESS)(?:\s*\([^()]*\))?)*(?:\*\*)?(?:\s*[:.—–-]\s*|,\s*(?=(?:per|from|based|reading)\b))/i;
const LABEL_INLINE = /\s*\((?:EVIDENCE|INFERENCE|GUESS)\)|\b(?:EVIDENCE|INFERENCE|GUESS):\s*|\s+\b(?:EVIDENCE|INFERENCE|GUESS)\.?$/g;
// "Refines P4.1 (on (c)):" goes with what it says of the part it refines.
const VERSION_START = /^\s*\(?(?:new,\s*)?(?:Replaces|Corrects|Refines|Extends|Narrows|(?:a\s+)?narrower version of)\s+P\d+\.\d+\)?(?:\s*\((?:[^()]|\([^()]*\))*\))?\s*[:,—–-]?\s*/i;
const POINT_NUMBER = /\s*\((?:see\s+)?(?:point|item)s?\s+\d+(?:\s*(?:,|and|-)\s*\d+)*\)/gi;
// An absolute path (not a URL's): /tmp/codex-scratch-x/overflow.js -> overflow.js.
const ABS_PATH = /(?<![\w.:/~-])(?:~|\/)(?:[\w.@+-]+\/)+([\w.@+-]+)/g;
const PARLEY_URI = /parley:\/\/\S+/g;
const DELIBERATION_ID = /\bd-\d{8}-\d{6}-[0-9a-f]{6}\b/g;
const BOLD = /\*\*(.+?)\*\*/g;

function idWords(state: DeliberationState, id: string): string | undefined {
  if (/^P/.test(id)) return findPoint(state, id) ? 'an earlier point' : undefined;
  if (/^C/.test(id)) return state.challenges.some((c) => c.id === id) ? 'an objection' : undefined;
  const fact = state.ledger.find((f) => f.id === id);
  if (!fact) return undefined;
  return fact.tag === 'user' ? "the user's constraint" : fact.tag === 'verified' ? 'a verified fact' : 'a fact';
}

const known = (state: DeliberationState, ids: string[]) => ids.every((id) => idWords(state, id));

const neutralisers = new WeakMap<DeliberationState, ScratchNeutraliser>();

/** The text in plain words: one line, ids, labels, paths and markup out; the consultee's scratch paths said as such. */
export function plainWords(state: DeliberationState, text: string): string {
  const say = neutralisers.get(state) ?? scratchPaths(state);
  neutralisers.set(state, say);
  let out = withoutFences(say(text)).replace(/\s+/g, ' ').trim();
  out = out.replace(LABEL_START, '').replace(VERSION_START, '').replace(LABEL_START, '').replace(LABEL_INLINE, ' ').replace(BOLD, '$1');
  out = out.replace(CITATION, (m) => (known(state, m.match(new RegExp(ID, 'g')) ?? []) ? '' : m)).replace(POINT_NUMBER, '').replace(LABEL_START, '');
  out = out.replace(RANGE_ONLY, (m, a: string, b: string) => (known(state, [a, b]) ? (a.startsWith('F') ? 'facts' : 'earlier points') : m));
  out = out.replace(ANY_ID, (id) => idWords(state, id) ?? id);
  out = out.replace(PARLEY_URI, 'the record').replace(DELIBERATION_ID, 'this deliberation').replace(ABS_PATH, '$1');
  return out.replace(/\s+([,.;:])/g, '$1').replace(/\s{2,}/g, ' ').trim();
}

/** A first sentence longer than this is cut at a clause and says where the rest is. */
const RUN_ON = 700;
/** A first sentence shorter than this is a title ("Counts.", "Bottom line — B."), not a claim. */
const TITLE = 60;

/**
 * Whole sentences, as many as fit in `max` characters (the first whole unless it runs on past RUN_ON):
 * a gist that never stops mid-sentence without saying so.
 */
export function wholeSentenceGist(text: string, max: number): string {
  const [first = '', ...rest] = sentences(text);
  let out = first.length > RUN_ON ? runOnCut(first, RUN_ON) : first;
  for (const s of rest) {
    if (out.length + 1 + s.length > max) {
      // "Bottom line — none of a/b/c alone." says nothing alone: the claim is in the sentence after it.
      if (out.length < TITLE && s.length > 2 * TITLE) out += ` ${runOnCut(s, max - out.length - 1)}`;
      break;
    }
    out += ` ${s}`;
  }
  return out;
}

function runOnCut(sentence: string, limit: number): string {
  const head = sentence.slice(0, limit);
  const clause = Math.max(head.lastIndexOf('; '), head.lastIndexOf(', '), head.lastIndexOf(': '));
  return `${head.slice(0, clause > limit / 2 ? clause : head.lastIndexOf(' ')).trim()} (the rest is in the full record)`;
}
