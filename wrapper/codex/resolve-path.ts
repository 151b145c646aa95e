import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { BackendError } from '../backend.js';
import { isExecutable, packageBinaries, searchPath } from '../binary-lookup.js';

const INSTALL_HINT = 'install it with `npm install @openai/codex`, or set PARLEY_CODEX_PATH to the codex binary';

/**
 * Finds the codex binary: the `codexPath` option, else PARLEY_CODEX_PATH, else `codex` on PATH,
 * else the project's node_modules/.bin/codex (this package's, then the working directory's).
 * A bare name given explicitly is looked up on PATH only. Throws BackendError('not-found').
 */
export function resolveCodexPath(opts: { codexPath?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const env = opts.env ?? process.env;
  const explicit = opts.codexPath ?? env.PARLEY_CODEX_PATH;
  if (explicit) {
    if (explicit.includes('/')) {
      const full = resolve(explicit);
      if (isExecutable(full)) return full;
      throw new BackendError('not-found', `codex binary not found at ${full}: ${INSTALL_HINT}`);
    }
    const onPath = searchPath(explicit, env.PATH);
    if (onPath) return onPath;
    throw new BackendError('not-found', `codex binary "${explicit}" not found on PATH: ${INSTALL_HINT}`);
  }
  const found = searchPath('codex', env.PATH) ?? packageBinaries('codex').find(isExecutable);
  if (found) return found;
  throw new BackendError('not-found', `codex binary not found on PATH or in node_modules/.bin: ${INSTALL_HINT}`);
}

/**
 * How to spawn a resolved path. The npm launcher is a `#!/usr/bin/env node` script: run it with this
 * Node so it works even when PATH has no `node`.
 */
export function spawnTarget(codexPath: string): { file: string; prefixArgs: string[] } {
  let real = codexPath;
  try {
    real = realpathSync(codexPath);
  } catch {
    // resolveCodexPath checked it exists; a race leaves execa to report ENOENT
  }
  return /\.(c|m)?js$/.test(real) ? { file: process.execPath, prefixArgs: [real] } : { file: codexPath, prefixArgs: [] };
}
