import { readFile } from 'node:fs/promises';
import { UserFacingError } from '../schemas/user-facing-error.js';

/**
 * JSON.parse whose error gives the position only: V8's own message quotes the text, and the text
 * may be any file a caller named (its first characters must never reach an error).
 */
export function parseJsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    const where = text.trim() === '' ? ' (it is empty)' : position === undefined ? '' : ` (at character ${position})`;
    throw new UserFacingError(`${what} is not valid JSON${where}`, { code: 'not-json' });
  }
}

/** Reads and parses a JSON file; errors name the file, never its content. */
export async function readJsonFile(path: string, what = path): Promise<unknown> {
  return parseJsonText(await readFile(path, 'utf8'), what);
}
