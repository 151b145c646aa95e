import { readdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { BackendError } from '../backend.js';
import { checkArgvValues, type CodexArgvInput } from './argv.js';
import { codexEnvironment } from './child-env.js';

/** `path` is `folder` or lies inside it. */
export function isWithin(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

const real = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

/**
 * What Codex's sandboxed commands may not read: the folders asked for, and Codex's own home, whose
 * sessions hold every earlier prompt (other deliberations' questions and material) and whose
 * auth.json holds the login. Codex's Linux sandbox runs the codex binary again to start each
 * command, so a folder holding that binary keeps it: only the folder's other entries are hidden.
 */
export function pathsToHide(folders: readonly string[], env: NodeJS.ProcessEnv, codexBinary: string): string[] {
  const binary = real(codexBinary);
  const hidden = new Set<string>();
  for (const folder of [...folders, codexHomeOf(env)].map(real)) {
    if (!isWithin(binary, folder)) {
      hidden.add(folder);
      continue;
    }
    const keep = relative(folder, binary).split(sep)[0];
    for (const entry of entries(folder)) if (entry !== keep) hidden.add(join(folder, entry));
  }
  // Only the outermost: Codex's Linux sandbox cannot hide a path inside one it already hid (bwrap: Can't mkdir).
  return [...hidden].filter((path) => ![...hidden].some((other) => other !== path && isWithin(path, other)));
}

function entries(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

export const codexHomeOf = (env: NodeJS.ProcessEnv): string => resolve(env.CODEX_HOME ?? join(env.HOME ?? homedir(), '.codex'));

/**
 * Codex's working folder must be one, and outside what its commands may not read: Codex reads the
 * folder's AGENTS.md through the sandbox, so a hidden one would fail every turn.
 */
export function checkWorkFolder(cwd: string | undefined, hidden: readonly string[]): void {
  const folder = real(cwd ?? process.cwd());
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    // reported below
  }
  if (!isFolder) throw new BackendError('bad-spec', `codex cannot work in ${JSON.stringify(folder).slice(0, 200)}: no such folder; give an existing project folder, or 'empty'`);
  const over = hidden.find((path) => isWithin(folder, real(path)));
  if (over) throw new BackendError('bad-spec', `codex cannot work in ${folder}: it lies in ${over}, which Codex's commands may not read (parley's state, Codex's home); give a project folder, or 'empty'`);
}

/**
 * A call's settings checked as runCodex checks them, without starting codex (nor loading what runs
 * it): a caller that keeps settings for later calls refuses a bad one before keeping it.
 * Throws BackendError('bad-spec').
 */
export function checkCodexCall(opts: Pick<CodexArgvInput, 'model' | 'reasoningEffort' | 'sandbox' | 'cwd' | 'hidden'> & { env?: NodeJS.ProcessEnv }): void {
  checkArgvValues(opts);
  const hidden = opts.sandbox === 'danger-full-access' ? [] : [...(opts.hidden ?? []), codexHomeOf(codexEnvironment({ ...process.env, ...opts.env }))];
  checkWorkFolder(opts.cwd, hidden);
}
