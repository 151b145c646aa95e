import { basename, delimiter, dirname, isAbsolute, relative, resolve } from 'node:path';

/**
 * How this parley was started, as the words a person types to start it again where they are: every
 * command parley prints for the user to run begins with it. `parley` when it runs as the `parley` on
 * PATH (an installed package), `npx parley` under npx, else `node <its entry>`, e.g. `node
 * plugin/parley-server.mjs` in a clone, where no `parley` is on PATH.
 */
export function parleyCommand(context: Partial<Invocation> = {}): string {
  const { argv, env, cwd, execArgv } = { argv: process.argv, env: process.env, cwd: process.cwd(), execArgv: process.execArgv, ...context };
  const entry = argv[1];
  if (entry === undefined) return 'parley';
  if (basename(entry) === 'parley') {
    // npm exec puts the package's bin folder on the PATH of the process it starts, not on the user's.
    if (env.npm_command === 'exec') return 'npx parley';
    const onPath = (env.PATH ?? '').split(delimiter).some((folder) => folder !== '' && resolve(cwd, folder) === dirname(entry));
    if (onPath) return 'parley';
  }
  return ['node', ...execArgv, shownPath(entry, cwd)].map(shellWord).join(' ');
}

export interface Invocation {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  execArgv: readonly string[];
}

/** A path as the user can type it from `cwd`: relative when inside it. */
function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** A word a POSIX shell reads back as itself. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
