import { existsSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';

/**
 * The run folder of a CLI run's output file: `<out without its extension>.run/` beside it
 * (`debate.json` -> `debate.run/`), the same stem rule as an argumentation state's `<id>.audit.jsonl`.
 */
export function runFolderFor(outPath: string): string {
  const path = resolve(outPath);
  return join(dirname(path), `${basename(path, extname(path))}.run`);
}

/** The run folder to resume: debates used to use `<out>.run/` (`debate.json.run/`); an existing one is kept. */
export function resumableRunFolderFor(outPath: string): string {
  const folder = runFolderFor(outPath);
  const legacy = `${resolve(outPath)}.run`;
  return !existsSync(folder) && existsSync(legacy) ? legacy : folder;
}
