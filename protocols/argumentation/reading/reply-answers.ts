import type { AnswerKind, ReadAnswer, ReadMention } from './reading.js';
import { withoutOffers } from './reply-conditions.js';
import { LEADING_LABEL, labelHits } from './reply-labels.js';
import { sentences } from './reply-paragraphs.js';

/** Challenge ids (C1); in quick mode objections go by point id (P1.3). */
export function idPattern(quick: boolean): string {
  return quick ? '(?:C\\d+|P\\d+\\.\\d+)' : 'C\\d+';
}

function idList(quick: boolean): string {
  const id = idPattern(quick);
  return `${id}(?:\\s*(?:,\\s*and|,|/|&|\\+|and)\\s*${id})*`;
}

const LEADS = [
  're:?', 'regarding', 'concerning', 'on', 'about', 'as for', 'as to', 'for', 'to', 'in re', 'per',
  'answers?(?: to)?', 'answering', '(?:in )?responses?(?: to)?', 'responding to', 'repl(?:y|ies)(?: to)?', 'replying to',
  'defen[cs]e(?: of| on| for)?', 'defending', 'rebuttal(?: to| of| on)?', 'rebutting', 'addressing',
  'challenge', 'objection(?: to| on)?', '(?:partial(?:ly)? )?concession(?: on| of| to)?', 'the (?:challenge|objection)(?: to| on)?',
];
const AFTER_ID = '\\s*(?:\\([^)]*\\)|\\[[^\\]]*\\])?\\s*(?:[:—–.,)\\]]|\\s-\\s|\\s+-$|$|\\s+(?=(?:is\\s+)?(?:conceded|withdrawn|defended|maintained|stands|partly|partially|fully)\\b))';

/** Removes the Markdown dressing and a leading label that can sit before an answer's id ("**", "### ", "- ", "> ", "EVIDENCE —"). */
export function undress(line: string): string {
  return line.replace(/[*_`]/g, '').replace(/^\s*(?:#{1,6}\s+|[-+]\s+|>\s*)*/, '').replace(LEADING_LABEL, '').trim();
}

/** The ids a line opens an answer to ("Re C1:", "[C1]", "C1 (defense):", "I concede C3"), or none. */
export function answerRefs(line: string, quick: boolean): string[] {
  const text = undress(line);
  const ids = idList(quick);
  // "On the vacuum question (C2): ...": the id in brackets after a short description of the challenge.
  const described = new RegExp(`^(?:${LEADS.join('|')})\\s+(?:the|your|my)\\s+[^()[\\]\\n:.;]{1,60}?\\s*[[(](${ids})[\\])](?=\\s*[:—–,.]|\\s+\\S|\\s*$)`, 'i').exec(text);
  if (described?.[1]) return idsIn(described[1], quick);
  const forms = [
    new RegExp(`^(?:${LEADS.join('|')})\\s*:?\\s*(?:the\\s+)?[[(]?(${ids})\\b[\\])]?(?=${AFTER_ID}|\\s)`, 'i'),
    new RegExp(`^[[(]?(${ids})\\b[\\])]?(?=${AFTER_ID})`, 'i'),
    new RegExp(`^(?:i\\s+)?(?:fully\\s+|partly\\s+|partially\\s+)?(?:concede|conceding|withdraw|withdrawing|retract|retracting)\\s+(${ids})\\b`, 'i'),
  ];
  for (const form of forms) {
    const m = form.exec(text);
    if (!m?.[1]) continue;
    // "On C3," is an answer; "For C1 to hold we need ..." is prose.
    if (/^(?:for|to|on|about|per)\b/i.test(text) && !new RegExp(`^\\w+\\s+[[(]?${escape(m[1])}[\\])]?(?:${AFTER_ID})`, 'i').test(text)) continue;
    return idsIn(m[1], quick);
  }
  return [];
}

// Where a sentence or clause ends ("... conceded. C2: stands"), not after "e.g." or "vs.".
const BOUNDARY = /(?<!\b(?:e\.g|i\.e|vs|cf|etc|approx))[.!?;](?:\*\*|__|["'”’)\]])*\s+/g;

/** A line answering several ids in turn ("C1: conceded. C2: stands — F4 shows it. C3: withdrawn."), cut where each answer starts. */
export function answerPieces(line: string, quick: boolean): string[] {
  const pieces: string[] = [];
  let start = 0;
  let refs = answerRefs(line, quick);
  // Only a line that opens as an answer is cut into answers: a summary saying "I concede C2: ..." mid-line stays whole.
  if (refs.length === 0) return [line];
  for (const m of line.matchAll(BOUNDARY)) {
    const at = (m.index ?? 0) + m[0].length;
    const next = answerRefs(line.slice(at), quick);
    if (next.length === 0 || next.every((id) => refs.includes(id))) continue;
    pieces.push(line.slice(start, at).trimEnd());
    start = at;
    refs = next;
  }
  pieces.push(line.slice(start));
  return pieces;
}

/** A table row whose first cell names an id ("| C1 | Conceded — ... |"): an answer to it. */
export function rowRefs(line: string, quick: boolean): string[] {
  const cell = /^\s*\|([^|]+)\|/.exec(line)?.[1];
  return cell ? answerRefs(cell, quick) : [];
}

export function idsIn(text: string, quick: boolean): string[] {
  const re = new RegExp(`\\b${idPattern(quick)}(?![\\w.]\\w)`, 'g');
  return [...new Set([...text.matchAll(re)].map((m) => m[0].toUpperCase()))];
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** "I concede C3." standing alone in a block: a concession answer wherever it appears. */
export function loneConcessions(text: string, quick: boolean): string[] {
  const re = new RegExp(`(?:^|[.!;]\\s+|\\n\\s*)(?:i\\s+)?(?:fully\\s+)?concede\\s+(${idList(quick)})\\s*(?:[.!;]|$)`, 'gim');
  return [...text.matchAll(re)].flatMap((m) => idsIn(m[1] ?? '', quick));
}

const NEGATED = [
  /(?:\bnot|n't|\bnever|\brefuse to|\bno reason to|\bnothing to|\bwithout|\bno)\s+(?:\w+\s+){0,2}?(?:conced\w*|withdraw\w*|retract\w*|narrow\w*)/gi,
  /(?:\bwould|'d|\bwill|\bcould|\bmight|\bhappy to|\bready to|\bwilling to|\bif\s+\w+\s+\w+,?\s*i)\s+(?:\w+\s+)?(?:conced\w*|withdraw\w*|retract\w*)/gi,
  /\bno concession\b/gi,
  /\bnot (?:conceded|withdrawn|retracted)\b/gi,
  // "I drop it as a reason": a reason for the claim given up, not the claim.
  /\b(?:drop|withdraw|retract|give up)\s+(?:it|that|this|them)\s+as\s+(?:an?\s+)?(?:reason|argument|ground|justification)s?\b/gi,
  // "Not agreed.", "I'm not sure I accept that framing", "I don't think you're right".
  /(?:\bnot|n't|\bnever|\bhardly)\s+(?:[\w']+\s+){0,3}?(?:agree\w*|accept\w*|grant\w*|right|fair)\b/gi,
];
const REFUSED = /(?:\bnot|n't|\bnever|\brefuse to)\s+(?:\w+\s+){0,2}?(?:conced\w*|withdraw\w*|retract\w*)|\bno concession\b|\bnot (?:conceded|withdrawn|retracted)\b/i;
const HARD = /\b(?:conced(?:e|ed|es|ing)|concession|withdr[ae]w\w*|retract\w*|i (?:drop|give up)\b|dropping (?:it|this|the \w+|p\d)|drop (?:the|that) (?:claim|number|figure|point)|i give (?:it|this) up)/i;
// "You're right to push on this" grants the question, not the claim.
const SOFT = /\b(?:you(?:'re| are) right(?! to \w)|fair (?:point|challenge|hit|enough|catch)|agreed|i agree|i accept|accepted|granted|i was wrong|that was wrong|overstated|mea culpa|my mistake|can(?:no|')t (?:defend|support)|no (?:measurement|data|benchmark) (?:for|behind)|i'?ll (?:leave|drop|let go of) (?:this|it|that)|not (?:going to )?(?:\w+ ){0,3}defending (?:it|this|that)|won't defend|leave it out|let (?:it|this) go|no longer (?:defend|hold|claim))\b/i;
const QUALIFIED = '(?:partly|partially|in part|up to a point|to (?:some|an|a certain) (?:extent|degree))';
const PARTIAL = [
  /\bwhat i(?:'d| would)? (?:still (?:keep|maintain|claim|stand by)|keep|can (?:still )?(?:support|defend|claim))\b|\bwhat (?:still )?(?:remains|survives) of\b|\bwhat(?:'s|’s| is) (?:still )?left of\b/i,
  // "I accept 'not dominated', not 'mapped once'": one part granted, another refused.
  /\bi (?:accept|grant|concede)\s+(?:['"“‘][^'"”’\n]{1,80}['"”’]|[^,.;:\n—–]{1,40}),\s*(?:but\s+)?not\b/i,
  new RegExp(`(?:^|[.!?:)\\n]\\s*)${QUALIFIED}\\s*(?:[.!:;,—–-]|$)`, 'im'),
  new RegExp(`\\b(?:partly|partially|in part|half)\\W+(?:\\w+\\W+){0,3}?(?:conced\\w*|right|agree\\w*|withdr\\w*|accept\\w*|valid|correct|fair|granted)`, 'i'),
  new RegExp(`\\b(?:conced\\w*|concession|withdr\\w*|right|agree\\w*|accept\\w*|granted|fair|true|valid)\\W+(?:\\w+\\W+){0,3}?${QUALIFIED}(?!\\w)`, 'i'),
  /\bpartial concession\b/i,
  // "I concede the 'gains nothing' part and keep the verdict".
  /\b(?:conced\w*|withdr\w*|drop\w*|give up)\b[^.;!?\n]{1,80}?\b(?:and|but|while|yet)\s+(?:i\s+)?(?:still\s+)?(?:keep|hold|maintain|stand by)\b/i,
  /\b(?:conced\w*|withdr\w*|accept\w*|grant\w*)\s+(?:a\s+|one\s+|some\s+)?part\b/i,
  /\b(?:some|part) of (?:this|that|it|the (?:challenge|objection|criticism|point)) (?:lands|is (?:fair|right|valid|correct))\b/i,
  /\bbut narrower\b|\bnarrower than\b|\bnarrow(?:ed|s|ing)? (?:it |this |the claim |my claim |p\d+\.\d+ )?(?:to|down)\b|\bp\d+\.\d+ narrowed\b/i,
  /\b(?:weaker|revised|scoped[- ]down|restated|smaller|narrower|narrowed|reduced) (?:claim|version|point)\b|\bnarrow(?:ing|ed)? (?:it|this|that|the claim|p\d|my claim)\b/i,
];
const NARROWING = PARTIAL.slice(-2);
// "I concede C5." or "Re C5: I withdraw P2.11." as the answer's first sentence, with nothing kept in it.
const OUTRIGHT = /^\W*(?:re\s+c\d+\W+)?i\s+(?:fully\s+)?(?:concede|withdraw|retract)\s+(?:c\d+|p\d+\.\d+|(?:the|this|that|my)\s+(?:point|claim|challenge))\s*\./i;
const FULL = /\b(?:entirely|fully|in full|completely|outright|wholesale|without reservation|the whole (?:claim|point))\b/i;
// What is kept after something is given up: "but the mechanism stands", "what I keep is ...", "not on the claim".
const KEEP = /\b(?:but|however|though|still|that said|nonetheless|yet)\b[^.]*?\b(?:stands?|holds?|maintain\w*|keep\w*|remains?|survives?|defend\w*|stand by|the core|the rest|the broader|the underlying|the main|the direction)\b/i;
const RETAIN = /\bwhat i(?:'d| would)? (?:still )?(?:keep|maintain|claim|can (?:still )?(?:support|defend|claim)|stand by)\b|\bwhat (?:still )?(?:remains|survives) of\b|\bwhat(?:'s|’s| is) (?:still )?left of\b|\b(?:the|my) (?:claim|point|mechanism|direction|conclusion|recommendation) (?:still )?(?:stands|holds|survives)\b|\bnot (?:on |about )?the (?:claim|point|direction|conclusion|mechanism|substance)\b|\bis (?:still )?real\b|\bstill (?:bites|applies|matters|holds|stands)\b/i;
const CONCEDE_OBJECT = /\bconced\w*\s+(?:the|that|on)\b[^.]{0,120}?(?:\bbut\b|;\s*(?:the|my|what)|\bnot the\b|\bwhile\b)/i;
// A later sentence that keeps something ("The mechanism claim in P2.1 stands without it.", "the conclusion is unaffected").
const MAINTAINED = /\b(?:stands|holds|survives|(?:is|are|remains?) (?:still )?(?:unaffected|unchanged|intact|valid|sound)|still (?:right|true|valid|applies)|not in dispute|(?:doesn'?t|does not|won'?t|will not) (?:change|affect|alter|touch)|the rest(?: of [^;\n]{1,40}?)? (?:is|stands|holds|remains|survives|doesn'?t|does not))\b/i;
// About the challenge ("the objection holds") or negated ("no longer holds"): nothing kept.
const KEEPS_NOTHING = /\b(?:objection|challenge|critique|criticism|your)\b|(?:n't|\bnot|\bno longer|\bnever)\s+(?:\w+\s+){0,2}?(?:stands?|holds?|survives?|remains?)\b/i;
// Acknowledged, then backed: "Fair challenge — I've since measured it: ...", "Granted, ... F4 shows the same".
const BACKED = /\bF\d+\b|[\w./-]+\.[a-z]{1,5}:\d+|https?:\/\/|\b(?:i|we)(?:'ve| have)?\s+(?:since |now |just |also )?(?:measured|ran|re-?ran|checked|tested|verified|benchmarked|reproduced|profiled)\b|\bthe (?:source|measurement|data|number) (?:is|comes from)\b|\b(?:is|are) (?:now )?(?:sourced|measured|verified)\b|\bhere(?:'s| is| are) the (?:measurement|data|source|numbers?)\b/i;

function unnegated(text: string): string {
  return NEGATED.reduce((t, re) => t.replace(re, ' '), withoutOffers(text));
}

/** The consultee's own words: a line quoted with ">" is the challenge being answered, not the answer. */
export function ownWords(text: string): string {
  const own = text.split('\n').filter((line) => !/^\s*(?:[-+*]\s+)?>/.test(line)).join('\n');
  return own.trim() ? own : text;
}

/** Whether a clause after the one giving something up keeps something (and is not about the challenge itself). */
function keeps(after: string): boolean {
  const clauses = after.split(/(?<=[.!?;,:])\s+|\s+[—–]\s+|\n+/).slice(1);
  return clauses.some((c) => MAINTAINED.test(c) && !KEEPS_NOTHING.test(c));
}

/** Whether an answer gives its claim up entirely, in part (keeping a narrowed claim), or maintains it. */
export function answerKind(text: string): AnswerKind {
  const raw = ownWords(text).replace(/[*_`]/g, '');
  const plain = unnegated(raw);
  const outright = OUTRIGHT.test(plain);
  // A revision set out inside the answer ("Corrected P1.6:", "Narrowed claim —") is kept, however the answer opens.
  if (REVISION.some((re) => re.test(ownWords(text)))) return 'partial-concession';
  // A narrowing word alone ("a revised version below") does not undo an answer that opens by conceding outright.
  const cues = outright && !RETAIN.test(plain) ? PARTIAL.filter((re) => !NARROWING.includes(re)) : PARTIAL;
  if (cues.some((re) => re.test(plain))) return 'partial-concession';
  if (REFUSED.test(raw) && !HARD.test(plain)) return 'defense';
  const hard = HARD.exec(plain);
  const given = hard ?? SOFT.exec(plain);
  if (!given) return 'defense';
  const after = plain.slice(given.index);
  // An acknowledgment followed by evidence is a defense: conceding it would dismiss the point on the very words that back it.
  if (!hard && (BACKED.test(after) || labelHits(after).some((h) => h.label === 'EVIDENCE'))) return 'defense';
  if (FULL.test(plain)) return 'concession';
  if (KEEP.test(after) || RETAIN.test(plain) || CONCEDE_OBJECT.test(after)) return 'partial-concession';
  if (!outright && keeps(after)) return 'partial-concession';
  // Only words that give the claim up dismiss it: an assent ("Fair point", "You're right") followed by an
  // argument of its own may be giving up all of it or a part, and the reader does not guess which.
  return !hard && arguesOn(after) ? 'unclear' : 'concession';
}

/** The assent goes on into an argument: two or more further sentences of substance, none of them giving the claim up. */
function arguesOn(after: string): boolean {
  const rest = sentencesOf(after).slice(1);
  if (rest.some((x) => HARD.test(x) || SOFT.test(x))) return false;
  return rest.filter((x) => words(x) >= 4).length >= 2;
}

const sentencesOf = (text: string): string[] => sentences(text.replace(/\n+/g, ' '));

// How a partial concession states what it keeps: "Narrowed claim: ...", "P4.1 narrowed to: ...", "What I keep is ...".
const SEPARATOR = '(?:\\s*[:—–]\\s*|\\s+-\\s+|\\s+is\\s*:\\s*|\\s+is\\s+(?:that\\s+)?)';
const STATED = [
  `\\b(?:narrow(?:ed|er)|revised|corrected|weaker|remaining|kept|restated|scoped[- ]down|smaller|reduced) (?:claim|version|point|P\\d+\\.\\d+)${SEPARATOR}`,
  `\\bnarrowed P\\d+\\.\\d+${SEPARATOR}`,
  '\\bnarrow(?:ed|s|ing)? (?:(?:it|this|the claim|my claim|P\\d+\\.\\d+) )?(?:down )?to\\s*[:—–]?\\s*',
  '\\bnarrow (?:it|this|that|the claim|my claim)(?: down)?\\s*[:—–]\\s*',
  // "What I still claim (INFERENCE), narrowed:", "What remains of P1.8 (INFERENCE) is only this:"
  `\\bwhat(?: i(?:'d| would)? (?:still )?(?:keep|maintain|claim|hold|stand by|can (?:still )?(?:support|defend|claim))| (?:still )?(?:remains|stands|holds)(?: true)?|(?:'s|’s| is) (?:still )?left)(?: (?:of|from) [^:\\n]{1,80}?)?(?:\\s*\\([^)\\n]*\\))?(?:,? narrowed)?(?:\\s+is(?: only)?(?: this| narrow(?:er)?| smaller| simpler)?)?${SEPARATOR}`,
  // "I concede C1 in part; I still claim: ...", as the format asks, or with no colon ("I still claim a kid header is needed").
  "\\bi (?:still|now|only) (?:claim|maintain|hold|stand by)(?: that)?(?:\\s*[:—–]\\s*|\\s+)",
  // "the part I keep: ...", "I keep the verdict: ...", a "**Kept:** ..." bullet.
  `\\bthe part (?:i|we) (?:still )?(?:keep|hold|maintain|stand by)${SEPARATOR}`,
  `\\bi (?:still )?keep (?:the|my) (?:verdict|claim|point|recommendation|conclusion|position|core)${SEPARATOR}`,
  '(?:^|\\n)[ \\t]*(?:[-*+][ \\t]+)?(?:\\*\\*|__)?kept(?:\\*\\*|__)?\\s*[:—–]\\s*(?:\\*\\*|__)?\\s*',
  // "I still rank D above B, for reasons ...": the verb is part of the claim.
  '\\b(?=i (?:still|now) (?:rank|prefer|put|place|recommend|favou?r)\\b)',
  // The claim runs on over its continuation lines (a nested list included) up to a blank line or the next top-level item.
].map((source) => new RegExp(`${source}([^\\n]*(?:\\n(?![ \\t]*\\n|[-*+]\\s|#)[^\\n]*)*)`, 'i'));
const REVISION = STATED.slice(0, 2);
const GIVEN = [...PARTIAL, HARD, SOFT];
const TURN = /\b(?:but|however|though|that said|nonetheless|yet)\b[,:]?\s*/i;
// A kept clause that only points back ("but that narrower claim stands", "but it holds") says nothing on its own.
const ANAPHOR = /^(?:that|this|these|those|it|they|which|so|narrower|broader|weaker|smaller|less|more|only|partly|partially|in part|not|the (?:rest|remainder|core|gist|point|claim|argument|mechanism|direction|conclusion|substance)|(?:the|that|this|my) (?:narrow(?:er|ed)|revised|weaker|remaining|smaller|reduced|underlying|broader|main|original|core) \w+|my (?:claim|point|argument))\b/i;
const LABEL_AFTER = /\s+(?=[*_]*(?:evidence|inference|guess)[*_]*\s*[:—–])/i;

const words = (s: string): number => s.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)?.length ?? 0;

// "I still claim the following:" with its items after a blank line: the items are the claim (keptByItems), not these words.
const POINTER = /^(?:the following|as follows|(?:the )?(?:points?|items?) (?:below|that follow)|these(?: points| items)?|this)\s*:?$/i;

/** The claim an answer states it keeps ("Narrowed claim: ...", "Corrected P1.6: ...", "What I still claim: ..."), if any. */
function statedClaim(text: string): string | undefined {
  // Every claim stated as kept, in reply order: "What I keep: ..." and, paragraphs later, "Corrected claim: ..." are both
  // what the answer keeps; one that starts inside an earlier one's text is part of it.
  const found = STATED.flatMap((re) => [...text.matchAll(new RegExp(re.source, 'gi'))]).sort((a, b) => a.index - b.index);
  const claims: string[] = [];
  let covered = 0;
  for (const m of found) {
    if (m.index < covered) continue;
    let stated = m[1]?.split(LABEL_AFTER)[0] ?? '';
    // "Corrected P1.6:" over a list, or "... and it's bounded:" before one: the list is the claim, up to the next blank line.
    const overList = /\n[ \t]*$/.test(m[0].slice(0, m[0].length - (m[1]?.length ?? 0)));
    const end = m.index + m[0].length;
    const list = overList || stated.trim().endsWith(':') ? (/^(?:\n(?![ \t]*\n)[^\n]*)*/.exec(text.slice(end))?.[0] ?? '') : '';
    covered = end + list.length;
    stated = `${stated}${list}`.replace(/^\s*(?:[*_]+(?=\s))?/, '').trim();
    if (words(stated) >= 2 && !POINTER.test(stated)) claims.push(stated);
  }
  return claims.length ? claims.join('\n\n') : undefined;
}

/**
 * The claim a partial concession keeps: stated ("Narrowed claim: ...", "What I keep: ..."), or the clause
 * after the turn that follows the concession ("I concede X, but <claim>."); none when it cannot be cut out
 * cleanly (the orchestrator then states it: a wrong cut reads worse than none).
 */
export function narrowedClaim(answer: string): string | undefined {
  const text = ownWords(answer);
  const stated = statedClaim(text);
  if (stated) return stated;
  // Negations blanked out in place, so that indices still point into the text.
  const affirmed = NEGATED.reduce((t, re) => t.replace(re, (m) => ' '.repeat(m.length)), withoutOffers(text));
  const given = GIVEN.map((re) => re.exec(affirmed)?.index).filter((i) => i !== undefined);
  const from = given.length ? Math.min(...given) : 0;
  // The turn belongs to the concession's own sentence ("I concede X, but <claim>"): a "But" sentences later may start
  // what is given up ("I partly concede. <kept>. But I left out <conceded>"), and a wrong cut reads worse than the whole.
  const sentence = /^[\s\S]*?(?:[.!?](?=\s)|\n\s*\n|$)/.exec(text.slice(from))?.[0] ?? '';
  const turn = TURN.exec(sentence);
  if (!turn) return keptAfterColon(text.slice(from));
  const rest = text.slice(from + turn.index + turn[0].length);
  const clause = /^[^\n]*?(?:[.!?](?=\s|$)|$)/m.exec(rest)?.[0]?.split(LABEL_AFTER)[0]?.trim() ?? '';
  const bare = clause.replace(/[*_`]/g, '').trim();
  return words(bare) >= 3 && !ANAPHOR.test(bare) && !/:$/.test(bare) ? clause : undefined;
}

// "The direction is still right: batching reduces round trips ...": what follows the colon is the claim kept. A "still"
// that keeps nothing ("a CJS build still buys you two groups:", what is conceded) leads into no kept claim.
const KEPT_COLON = /\b(?:(?:is|are|remains?) still|still (?:right|true|valid|correct|sound|stands|holds|applies|bites|matters)|stands|holds|remains|survives|unaffected|unchanged)\b[^:\n.]*:\s*([^\n]+)/i;

function keptAfterColon(text: string): string | undefined {
  const claim = KEPT_COLON.exec(text)?.[1]?.split(LABEL_AFTER)[0]?.trim();
  return claim && words(claim) >= 3 ? claim : undefined;
}

/** "Re C1 and C2: C1 conceded; C2 stands" gives each id the kind of the sentences naming it alone. */
export function sharedKind(ref: string, text: string, quick: boolean): ReadAnswer['kind'] {
  const own = sentences(text).filter((s) => {
    const ids = idsIn(s, quick);
    return ids.length === 1 && ids[0] === ref;
  });
  return answerKind(own.length > 0 ? own.join(' ') : text);
}

/** Each id the chunks name that no answer answers, with the sentences naming it. */
export function mentionsIn(chunks: string[], answered: Set<string>, quick: boolean): ReadMention[] {
  const found = new Map<string, string[]>();
  for (const chunk of chunks) {
    for (const ref of idsIn(chunk, quick).filter((id) => !answered.has(id))) {
      const said = found.get(ref) ?? [];
      const naming = sentences(chunk).filter((x) => idsIn(x, quick).includes(ref));
      for (const s of naming.length ? naming : [chunk.trim()]) if (!said.includes(s)) said.push(s);
      found.set(ref, said);
    }
  }
  return [...found].map(([ref, said]) => ({ ref, text: said.join(' ') }));
}
