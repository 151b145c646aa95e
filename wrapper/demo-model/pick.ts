/** Deterministic choices for the demo model: the same prompt always gets the same reply. */

/** A 32-bit FNV-1a hash of the text. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** One item of the list, chosen by the seed text. */
export function pick<T>(items: readonly T[], seed: string): T {
  return items[hash(seed) % items.length]!;
}

/** A number in [min, max] with `digits` decimals, chosen by the seed text. */
export function between(min: number, max: number, seed: string, digits = 2): number {
  const unit = (hash(seed) % 10_000) / 9_999;
  return Number((min + unit * (max - min)).toFixed(digits));
}

/** The text of a `Label: value` line, or undefined. */
export function lineValue(text: string, label: string): string | undefined {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped}:[ \\t]*(.+)$`, 'm').exec(text)?.[1]?.trim();
}

/** A question's subject, short enough to quote inside a sentence ("Should we X?" -> "X"). */
export function subjectOf(question: string): string {
  const first = question.replace(/\s+/g, ' ').trim().split(/(?<=[?.!])\s/)[0] ?? question;
  const bare = first.replace(/[?.!]+$/, '').replace(/^(should|shall|must|can|could|would|will|do|does|is|are)\s+(we|i|you|they|it|the team|our team|a team)?\s*/i, '');
  return bare.length > 90 ? `${bare.slice(0, 88).replace(/\s+\S*$/, '')}…` : bare || 'this decision';
}
