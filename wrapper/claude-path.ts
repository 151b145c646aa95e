import { isAbsolute, resolve } from 'node:path';
import { BackendError } from './backend.js';
import { isExecutable, isFile, packageBinaries, searchPath } from './binary-lookup.js';

export const CLAUDE_PATH_ENV = 'PARLEY_CLAUDE_PATH';
const INSTALL_HINT = `install it with \`npm install -g @anthropic-ai/claude-code\`, or set ${CLAUDE_PATH_ENV} to the claude binary`;

/**
 * Finds the Claude Code binary, in this order: the `binPath` option, else PARLEY_CLAUDE_PATH (an
 * absolute path to an existing file), else `claude` on PATH, else this package's own
 * node_modules/.bin/claude (then the working directory's). Throws BackendError('not-found').
 */
export function resolveClaudeBinary(opts: { binPath?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const env = opts.env ?? process.env;
  if (opts.binPath) {
    if (!opts.binPath.includes('/')) {
      const onPath = searchPath(opts.binPath, env.PATH);
      if (onPath) return onPath;
      throw new BackendError('not-found', `claude binary "${opts.binPath}" not found on PATH: ${INSTALL_HINT}`);
    }
    const full = resolve(opts.binPath);
    if (isFile(full)) return full;
    throw new BackendError('not-found', `claude binary not found at ${full}: ${INSTALL_HINT}`);
  }
  const explicit = env[CLAUDE_PATH_ENV];
  if (explicit) {
    if (!isAbsolute(explicit)) {
      throw new BackendError('not-found', `${CLAUDE_PATH_ENV} must be an absolute path to the claude binary, not "${explicit}"`);
    }
    if (!isFile(explicit)) throw new BackendError('not-found', `${CLAUDE_PATH_ENV} is ${explicit}, which is not an existing file: ${INSTALL_HINT}`);
    return explicit;
  }
  const found = searchPath('claude', env.PATH) ?? packageBinaries('claude').find(isExecutable);
  if (found) return found;
  throw new BackendError('not-found', `claude binary not found on PATH or in node_modules/.bin: ${INSTALL_HINT}`);
}
