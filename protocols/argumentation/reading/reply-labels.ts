import type { ReplyLabel } from '../../../schemas/argumentation.js';

const WORD = '(evidence|inference|guess)';
// Ways a word is used as a label rather than as prose ("my guess is", "no evidence that").
const LABEL_USES: RegExp[] = [
  /\b(EVIDENCE|INFERENCE|GUESS)\b/g,
  new RegExp(`(?:\\*\\*?|__?)\\s*${WORD}\\s*[:.\\-—–]?\\s*(?:\\*\\*?|__?)`, 'gi'),
  new RegExp(`[[(]\\s*${WORD}\\b\\s*(?=[\\]):,;—–-])`, 'gi'),
  // "Label: evidence", "Type — Evidence.", "**Type:** Evidence.", "labelled as inference".
  new RegExp(`\\b(?:label(?:led|ed)?|type|kind|basis|status|tag|category)[\\s*_]*(?:[:=—–-]|as\\b)[\\s*_:]*${WORD}\\b`, 'gi'),
  new RegExp(`\\b${WORD}\\s*(?::|—|–|\\s-\\s)`, 'gi'),
];
// Before a "guess:" these make it prose ("my guess: ...", "an educated guess — ...").
const PROSE_BEFORE = /\b(?:my|a|an|the|no|any|some|this|that|pure|educated|best|wild|your|our|of|without|more|little|strong|direct|hard|weak|is|as|for|real|solid|good)\s*$/i;

// A label an item opens with, ahead of what it does: "EVIDENCE — Re P1.8: ...", "INFERENCE — Nothing further.".
export const LEADING_LABEL = /^(?:evidence|inference|guess)\s*(?:[—–:.,]|\s-\s)\s*/i;

export interface LabelHit {
  label: ReplyLabel;
  index: number;
}

/** Every label use in `text`, in order; overlapping matches of different forms count once. */
export function labelHits(text: string): LabelHit[] {
  const hits = new Map<number, ReplyLabel>();
  LABEL_USES.forEach((re, form) => {
    for (const m of text.matchAll(re)) {
      const word = m[1] ?? '';
      const index = (m.index ?? 0) + m[0].toLowerCase().indexOf(word.toLowerCase());
      if (form === LABEL_USES.length - 1 && PROSE_BEFORE.test(text.slice(Math.max(0, index - 20), index))) continue;
      hits.set(index, word.toUpperCase() as ReplyLabel);
    }
  });
  const leading = /^[\s*_`>#([-]*(evidence|inference|guess)\b(?=\s*[^\s\w]|\s*$)/i.exec(stripTitle(text));
  if (leading?.[1]) {
    const index = text.toLowerCase().indexOf(leading[1].toLowerCase());
    if (index >= 0) hits.set(index, leading[1].toUpperCase() as ReplyLabel);
  }
  // "**Evidence:** none needed here." names a label only to say there is none.
  for (const index of [...hits.keys()]) if (/^\w+\W{0,6}(?:none|n\/a|nothing)\b/i.test(text.slice(index))) hits.delete(index);
  return [...hits.entries()].sort((a, b) => a[0] - b[0]).map(([index, label]) => ({ index, label }));
}

/** The first label used in a block, as a label (in any case), if any. */
export function firstLabel(text: string): ReplyLabel | undefined {
  return labelHits(text)[0]?.label;
}

export function countLabels(text: string): Record<ReplyLabel, number> {
  const counts: Record<ReplyLabel, number> = { EVIDENCE: 0, INFERENCE: 0, GUESS: 0 };
  for (const hit of labelHits(text)) counts[hit.label] += 1;
  return counts;
}

// "**Throughput.** Inference: ..." leads with a label once the bold title is set aside.
function stripTitle(text: string): string {
  return text.replace(/^\s*\*\*[^*]+\*\*\s*[:.—–-]?\s*/, '');
}
