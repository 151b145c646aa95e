import { createHash } from 'node:crypto';

/** Up to this many characters (of JSON, for an object), an input that changed nothing is kept whole. */
const KEPT_CHARS = 16 * 1024;
const EXCERPT_CHARS = 500;

/**
 * What the audit keeps of an input the deliberation refused (a move that changed nothing, a reply
 * reply_record refused): the input itself up to 16 KB, else its size, SHA-256 and first characters.
 * A refused input is not part of the deliberation, so repeating an oversized one must not grow the
 * log by megabytes a time; an applied input is bounded by the state's own size limit.
 */
export function keptInput(input: unknown): unknown {
  const text = typeof input === 'string' ? input : (JSON.stringify(input) ?? '');
  if (text.length <= KEPT_CHARS) return input;
  return {
    omitted: `an input of ${text.length} characters that changed nothing: kept as its size, SHA-256 and first ${EXCERPT_CHARS} characters`,
    chars: text.length,
    sha256: createHash('sha256').update(text).digest('hex'),
    excerpt: text.slice(0, EXCERPT_CHARS),
  };
}
