import { ARMS, type Arm } from './pairs.js';
import type { Key } from './verdict.js';

/** The tool's own name in an answer would tell the judge which arm wrote it. */
const TOOL_NAME = /\bparley\b/gi;
export const REDACTED = '[tool]';

/** A small seeded generator (mulberry32): the same seed gives the same order on every machine. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Which arm is X for this seed. */
export function keyFor(seed: number): Key {
  const parleyFirst = seeded(seed)() < 0.5;
  return parleyFirst ? { X: 'parley', Y: 'plain', seed } : { X: 'plain', Y: 'parley', seed };
}

/** The second judge's key: the first one's labels the other way round. */
export const swapped = (key: Key, from: string): Key => ({ X: key.Y, Y: key.X, swappedFrom: from });

/** An answer as the judge sees it: the tool's name replaced; how many times, for the key's reader. */
export function blind(answer: string): { text: string; redactions: number } {
  let redactions = 0;
  const text = answer.replace(TOOL_NAME, () => {
    redactions += 1;
    return REDACTED;
  });
  return { text: text.trim(), redactions };
}

/**
 * The judge's packet: the question and the two answers under X and Y, nothing else. Each answer
 * sits between begin and end lines, so headings inside an answer cannot pass for the packet's own.
 */
export function packetText(question: string, answers: Record<Arm, string>, key: Key): { packet: string; redactions: Record<Arm, number> } {
  const redactions = Object.fromEntries(ARMS.map((arm) => [arm, 0])) as Record<Arm, number>;
  const section = (label: 'X' | 'Y'): string => {
    const { text, redactions: n } = blind(answers[key[label]]);
    redactions[key[label]] = n;
    return [`===== Answer ${label}: begin =====`, '', text, '', `===== Answer ${label}: end =====`].join('\n');
  };
  const packet = ['# The question the user asked', '', question.trim(), '', '# The two answers', '', section('X'), '', section('Y'), ''].join('\n');
  return { packet, redactions };
}
