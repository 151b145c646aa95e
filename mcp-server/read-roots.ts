import { realpath } from 'node:fs/promises';
import { delimiter, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileErrorText } from '../state/read-file.js';
import { ToolRefusal } from './tool-kit.js';

/** Folders, besides the state folder, whose files a tool may read by path (separated like PATH). */
export const READ_DIRS_ENV = 'PARLEY_READ_DIRS';

export function readRoots(home: string, env: NodeJS.ProcessEnv): string[] {
  const extra = (env[READ_DIRS_ENV] ?? '').split(delimiter).filter((dir) => dir.trim() !== '');
  return [home, ...extra.map((dir) => resolve(dir))];
}

/**
 * The real path of a file named in a tool argument, refused unless it lies inside one of `roots`
 * once every symlink is followed. A relative path is taken from the first root (the state folder).
 */
export async function confinedPath(path: string, roots: readonly string[]): Promise<string> {
  const [first = '.'] = roots;
  const outside = new ToolRefusal(`${path} is outside the folders parley reads from (the state folder ${first}, and ${READ_DIRS_ENV}); copy the file there or add its folder to ${READ_DIRS_ENV}`);
  const asked = resolve(first, path);
  let real: string;
  try {
    real = await realpath(asked);
  } catch (error) {
    // Whether a file outside the folders exists is not for a tool argument to learn: same refusal either way.
    if (!roots.some((root) => isInside(resolve(root), asked))) throw outside;
    throw new ToolRefusal(fileErrorText(error, asked));
  }
  for (const root of roots) {
    const realRoot = await realpath(root).catch(() => undefined);
    if (realRoot !== undefined && isInside(realRoot, real)) return real;
  }
  throw outside;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
