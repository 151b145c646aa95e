import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { UserFacingError } from '../schemas/user-facing-error.js';

/**
 * Files a person named (a config, a run to report on, a sweep file), read with errors that name the
 * file and say what to do, instead of Node's `ENOENT: no such file or directory, stat 'x'`.
 */
const FILE_PROBLEMS: Record<string, { code: string; says: (path: string) => string }> = {
  ENOENT: { code: 'file-not-found', says: (path) => `${path} does not exist${isAbsolute(path) ? '' : ` (looked in ${process.cwd()})`}: check the name, or give the file's full path` },
  EACCES: { code: 'file-unreadable', says: (path) => `${path} cannot be read (permission denied): give a file you may read, or change its permissions` },
  EPERM: { code: 'file-unreadable', says: (path) => `${path} cannot be read (operation not permitted): give a file you may read` },
  EISDIR: { code: 'file-is-folder', says: (path) => `${path} is a folder, not a file: name a file in it` },
  ENOTDIR: { code: 'file-not-found', says: (path) => `${path} does not exist: a part of the path before its last name is a file, not a folder` },
};

/** The error a failed read or stat of `path` becomes: a UserFacingError for the usual causes (the errno error is its cause), else as it was. */
export function fileError(error: unknown, path: string): unknown {
  const known = FILE_PROBLEMS[(error as NodeJS.ErrnoException)?.code ?? ''];
  return known ? new UserFacingError(known.says(path), { code: known.code, cause: error }) : error;
}

/** What a failed read or stat of `path` says to the person who named it. */
export function fileErrorText(error: unknown, path: string): string {
  const named = fileError(error, path);
  return named !== error && named instanceof Error ? named.message : `cannot read ${path}: ${(error as NodeJS.ErrnoException)?.code ?? 'unreadable'}`;
}

/** A file that is not there, as Node reports it or as fileError says it. */
export function isMissingFile(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT' || (error instanceof UserFacingError && error.code === 'file-not-found');
}

export async function readTextFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw fileError(error, path);
  }
}

export async function statPath(path: string): Promise<Stats> {
  try {
    return await stat(path);
  } catch (error) {
    throw fileError(error, path);
  }
}
