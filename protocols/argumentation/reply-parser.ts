import type { ReplyLabel } from '../../schemas/argumentation.js';

export interface ParsedPoint {
  number: number;
  text: string;
  label?: ReplyLabel;
  /** Challenge ids this point answers ("Re C1", "C1:", "Regarding C1"). */
  challengeRefs: string[];
  /** Earlier point ids it extends (P1.2). */
  pointRefs: string[];
}

export interface ParsedReply {
  points: ParsedPoint[];
  /** Every challenge referenced anywhere, with the block(s) that answer it. */
  challengeRefs: { id: string; text: string }[];
  /** Challenge ids explicitly conceded. */
  concessions: string[];
  labels: Record<ReplyLabel, number>;
  /** Numbered points that claim a check was made but carry no EVIDENCE/INFERENCE/GUESS label. */
  unlabeledVerificationClaims: number[];
}

const NUMBERED = /^\s*(?:[-*]\s*)?(?:\*\*)?(\d{1,3})[.)](?:\*\*)?\s+(.*)$/;
const LABEL = /\b(EVIDENCE|INFERENCE|GUESS)\b/;
const REF_PATTERNS = [
  /\b(?:re|regarding|re:|in reply to|on)\s*:?\s*\[?C(\d+)\b/gi,
  /(?:^|[\s([*])C(\d+)\**\s*\]?\s*[:—–-]\s/gm,
  /\[C(\d+)\]/g,
];
const CONCEDE_WORD = /\b(concede[sd]?|conceding|withdraw[sn]?|retract(?:s|ed)?|you are right|you're right|I accept the objection)\b/i;
const NEGATED = /\b(not|don't|do not|cannot|can't|won't|never|refuse to)\s+(?:\w+\s+){0,2}(concede|withdraw|retract|accept)/i;
const VERIFICATION_CLAIM = /\b(I (?:ran|tested|measured|checked|verified|confirmed)|verified|confirmed by)\b/i;

/** Splits a reply into blocks: each numbered item with its continuation lines, and each free paragraph. */
function blocks(text: string): { number?: number; text: string }[] {
  const out: { number?: number; text: string }[] = [];
  let current: { number?: number; lines: string[] } | undefined;
  const flush = () => {
    if (current && current.lines.join('').trim()) out.push({ number: current.number, text: current.lines.join('\n').trim() });
    current = undefined;
  };
  for (const line of text.split(/\r?\n/)) {
    const m = NUMBERED.exec(line);
    if (m) {
      flush();
      current = { number: Number(m[1]), lines: [m[2] ?? ''] };
    } else if (!line.trim()) {
      if (current?.number === undefined) flush();
      else current.lines.push('');
    } else if (current) {
      current.lines.push(line);
    } else {
      current = { lines: [line] };
    }
  }
  flush();
  return out;
}

function refsIn(text: string): string[] {
  const ids = new Set<string>();
  for (const re of REF_PATTERNS) for (const m of text.matchAll(re)) ids.add(`C${m[1]}`);
  return [...ids];
}

function concessionsIn(text: string): string[] {
  const out = new Set<string>();
  for (const sentence of text.split(/(?<=[.!?])\s+|\n/)) {
    if (!CONCEDE_WORD.test(sentence) || NEGATED.test(sentence)) continue;
    for (const m of sentence.matchAll(/\bC(\d+)\b/g)) out.add(`C${m[1]}`);
  }
  return [...out];
}

export function parseConsulteeReply(text: string): ParsedReply {
  const all = blocks(text);
  const points: ParsedPoint[] = [];
  const refText = new Map<string, string[]>();
  const concessions = new Set<string>();
  for (const block of all) {
    const refs = refsIn(block.text);
    const conceded = concessionsIn(block.text);
    conceded.forEach((id) => concessions.add(id));
    // A concession names its challenge: that counts as a reference too.
    for (const id of new Set([...refs, ...conceded])) refText.set(id, [...(refText.get(id) ?? []), block.text]);
    if (block.number !== undefined) {
      const label = LABEL.exec(block.text)?.[1] as ReplyLabel | undefined;
      points.push({
        number: block.number,
        text: block.text,
        label,
        challengeRefs: [...new Set([...refs, ...conceded])],
        pointRefs: [...new Set([...block.text.matchAll(/\bP(\d+\.\d+)\b/g)].map((m) => `P${m[1]}`))],
      });
    }
  }
  const labels: Record<ReplyLabel, number> = { EVIDENCE: 0, INFERENCE: 0, GUESS: 0 };
  for (const m of text.matchAll(/\b(EVIDENCE|INFERENCE|GUESS)\b/g)) labels[m[1] as ReplyLabel] += 1;
  return {
    points,
    challengeRefs: [...refText.entries()].map(([id, texts]) => ({ id, text: texts.join('\n\n') })),
    concessions: [...concessions],
    labels,
    unlabeledVerificationClaims: points.filter((p) => !p.label && VERIFICATION_CLAIM.test(p.text)).map((p) => p.number),
  };
}
