import { UserFacingError } from '../schemas/user-facing-error.js';
import { readTextFile } from './read-file.js';
import { jsonProblemAt } from './json-position.js';

/**
 * JSON.parse whose error says where the text breaks (line and column) and what was expected there,
 * never the text itself: it may be any file a caller named. `file`, when the text is a file's,
 * gives the place as `file:line:column`, the form editors and terminals open.
 */
export function parseJsonText(text: string, what: string, file?: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    if (text.trim() === '') throw new UserFacingError(`${what} is not valid JSON (it is empty)`, { code: 'not-json' });
    const { line, column, problem } = jsonProblemAt(text);
    const place = file === undefined ? `line ${line}, column ${column}` : `${file}:${line}:${column}`;
    throw new UserFacingError(`${what} is not valid JSON at ${place}: ${problem}`, { code: 'not-json' });
  }
}

/** Reads and parses a JSON file; errors name the file (and where in it), never its content. */
export async function readJsonFile(path: string, what = path): Promise<unknown> {
  return parseJsonText(await readTextFile(path), what, path);
}
