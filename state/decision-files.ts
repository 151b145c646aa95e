import { chmod, lstat, mkdir, readdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UserFacingError } from '../schemas/user-facing-error.js';
import { redact } from '../schemas/secrets.js';
import { replaceFile, syncDirectory } from './atomic-write.js';
import { nodeFs } from './fs-seam.js';
import { errnoCode } from './store-error.js';

/**
 * The files of a repository's decision folder. They belong to the team, not to parley: they are
 * created once and never overwritten (O_EXCL), edited only when they still hold what was read, and
 * keep their permissions. Nothing outside the repository is read or written, symlinks included.
 */

/** Where teams keep their records, in the order looked for (adr-tools' `.adr-dir` first, as adr-tools reads it). */
export const CONVENTIONAL_FOLDERS = ['docs/adr', 'docs/decisions', 'doc/adr', 'adr'] as const;
export const ADR_DIR_FILE = '.adr-dir';

/** The repository a folder is in: the nearest folder up from it with a `.git`, else the folder itself. */
export async function repositoryRoot(cwd: string): Promise<string> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (await exists(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return resolve(cwd);
  }
}

const exists = (path: string) => lstat(path).then(() => true, () => false);

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The absolute path of a decision folder named relative to the repository, refused when it (or,
 * for one not made yet, its nearest existing parent) lies outside the repository once symlinks are
 * followed.
 */
export async function folderInRepository(root: string, folder: string): Promise<string> {
  const outside = new UserFacingError(`the decision folder ${JSON.stringify(folder)} is outside the repository ${root}: name a folder inside it, relative to its root (docs/adr)`, { code: 'decision-folder-outside' });
  if (!folder.trim() || isAbsolute(folder) || folder.includes('\0')) throw outside;
  const realRoot = await realpath(root);
  const asked = resolve(realRoot, folder);
  if (!isInside(realRoot, asked)) throw outside;
  let existing = asked;
  while (!(await exists(existing))) existing = dirname(existing);
  if (!isInside(realRoot, await realpath(existing))) throw outside;
  if (existing === asked && !(await stat(asked)).isDirectory()) throw new UserFacingError(`${folder} is a file, not a folder: name the folder that holds the decision records`, { code: 'decision-folder-not-folder' });
  return asked;
}

/** The repository's decision folder, relative to its root: the one `.adr-dir` names, else the first conventional one there is. */
export async function findDecisionFolder(root: string): Promise<string | undefined> {
  const named = (await readFile(join(root, ADR_DIR_FILE), 'utf8').catch(() => undefined))?.trim();
  if (named) return named;
  for (const folder of CONVENTIONAL_FOLDERS) {
    if ((await stat(join(root, folder)).catch(() => undefined))?.isDirectory()) return folder;
  }
  return undefined;
}

/** Writes `.adr-dir` so later deliberations (and adr-tools) find a folder the user named; never replaces one. */
export async function rememberDecisionFolder(root: string, folder: string): Promise<void> {
  await writeFile(join(root, ADR_DIR_FILE), `${folder}\n`, { flag: 'wx' });
}

/** The Markdown files of a folder (regular files only: a symlink could lead out of the repository). */
export async function readMarkdownFiles(dir: string): Promise<{ file: string; text: string }[]> {
  const names = (await readdir(dir).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return [];
    throw error;
  })).filter((name) => /\.(md|markdown)$/i.test(name));
  const files = await Promise.all(
    names.map(async (file) => {
      const path = join(dir, file);
      if (!(await lstat(path)).isFile()) return undefined;
      return { file, text: await readFile(path, 'utf8') };
    }),
  );
  return files.filter((f) => f !== undefined).sort((a, b) => a.file.localeCompare(b.file));
}

/**
 * What changes when a Markdown file of the folder is added, removed, renamed or edited: each one's
 * name, inode, size and modification time (nanosecond precision where the file system keeps it).
 */
export async function markdownSignature(dir: string): Promise<string> {
  const names = (await readdir(dir).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return [];
    throw error;
  })).filter((name) => /\.(md|markdown)$/i.test(name)).sort();
  const lines = await Promise.all(
    names.map(async (file) => {
      const s = await lstat(join(dir, file), { bigint: true }).catch(() => undefined);
      return s?.isFile() ? `${file}\0${s.ino}\0${s.size}\0${s.mtimeNs}` : '';
    }),
  );
  return lines.join('\n');
}

/** Creates a new file, failing with EEXIST rather than replacing one; the folder is made if need be. Known secrets are scrubbed. */
export async function createFileExclusive(dir: string, file: string, text: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, file);
  await writeFile(path, redact(text), { flag: 'wx' });
  await syncDirectory(nodeFs, dir);
  return path;
}

/**
 * Replaces a file's text only if it still reads `expected` (someone may have edited it since it was
 * read); atomic, and the file keeps its permissions. Returns whether it was replaced.
 */
export async function replaceIfUnchanged(path: string, expected: string, text: string): Promise<boolean> {
  const { mode } = await stat(path);
  if ((await readFile(path, 'utf8')) !== expected) return false;
  await replaceFile(nodeFs, path, text);
  await chmod(path, mode & 0o7777);
  await syncDirectory(nodeFs, dirname(path));
  return true;
}
