import { redact } from './secrets.js';

/**
 * The one brand for errors whose message is written for the caller (what went wrong and what to
 * do), as opposed to bugs: the MCP tools turn these into tool errors and rethrow anything else.
 * Every layer may throw one (schemas is the lowest layer), so the check is `instanceof`, never a name.
 */
export class UserFacingError extends Error {
  /** A stable kebab id of what went wrong (a rule, a store or backend error kind). */
  readonly code?: string;

  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    // Messages often carry what a provider or a child process said, which may echo a key.
    super(redact(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    if (options.code !== undefined) this.code = options.code;
  }
}

/** Ends a message taken from elsewhere with one full stop, never two ("Connection error."). */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
