/**
 * Size limits on what a move accepts. The state is rewritten whole on every move, so one huge
 * string slows every later write; a limit with a clear refusal keeps the deliberation usable.
 * Checked here rather than in each schema: tools/list stays small and every move gets the same rule.
 */
export const LIMITS = { text: 8_000, reply: 100_000, question: 20_000, material: 100_000, items: 200 } as const;

const LONG_FIELDS: Record<string, number> = { text: LIMITS.reply, question: LIMITS.question, material: LIMITS.material };

/** The first field over its limit, as a sentence, or undefined. */
export function oversized(input: unknown, path = ''): string | undefined {
  if (typeof input === 'string') {
    const field = path.split('.').pop()?.replace(/\[\d+\]$/, '') ?? '';
    const limit = path.includes('[') ? LIMITS.text : (LONG_FIELDS[field] ?? LIMITS.text);
    return input.length > limit ? `${path || 'input'} is ${input.length.toLocaleString('en-US')} characters (at most ${limit.toLocaleString('en-US')}): cite long material as path:lines with an excerpt` : undefined;
  }
  if (Array.isArray(input)) {
    if (input.length > LIMITS.items) return `${path} has ${input.length} items (at most ${LIMITS.items}): split the judgment`;
    for (const [i, item] of input.entries()) {
      const bad = oversized(item, `${path}[${i}]`);
      if (bad) return bad;
    }
    return undefined;
  }
  if (input && typeof input === 'object') {
    for (const [key, value] of Object.entries(input)) {
      const bad = oversized(value, path ? `${path}.${key}` : key);
      if (bad) return bad;
    }
  }
  return undefined;
}
