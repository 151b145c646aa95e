import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the CLI binaries parley drives (codex, claude) are looked for; each resolver keeps its own order and errors. */

/** `name` in the absolute folders of PATH, as a shell would find it. */
export function searchPath(name: string, pathVariable: string | undefined): string | undefined {
  for (const dir of (pathVariable ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** node_modules/.bin/<name> in every folder above this file (the package's own install), then the working directory's. */
export function packageBinaries(name: string): string[] {
  const candidates: string[] = [];
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    candidates.push(join(dir, 'node_modules', '.bin', name));
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  candidates.push(join(process.cwd(), 'node_modules', '.bin', name));
  return candidates;
}

export function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

export function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
