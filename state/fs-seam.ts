import * as fsp from 'node:fs/promises';

/** The part of an open file the store uses. */
export interface FileHandleSeam {
  writeFile(data: string): Promise<void>;
  /** fdatasync: the data and the size reach the disk. */
  datasync(): Promise<void>;
  /** fsync: used on directories so a rename or unlink in them is durable. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Every file-system call the store makes goes through this seam, so tests can make any one of
 * them fail (or crash half-way) without monkey-patching node.
 */
export interface FsSeam {
  open(path: string, flags: 'wx' | 'r'): Promise<FileHandleSeam>;
  readFile(path: string): Promise<string>;
  /** Creates a file that must not exist yet (O_EXCL) with this content. */
  writeNewFile(path: string, data: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** Hard link; fails with EEXIST when `to` exists (used to put back a lock without overwriting). */
  link(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** Removes an empty folder; fails with ENOTEMPTY (or EEXIST) otherwise, which the lock relies on. */
  rmdir(path: string): Promise<void>;
  mkdir(path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  mtimeMs(path: string): Promise<number>;
}

export const nodeFs: FsSeam = {
  open: (path, flags) => fsp.open(path, flags, 0o600),
  readFile: (path) => fsp.readFile(path, 'utf8'),
  writeNewFile: (path, data) => fsp.writeFile(path, data, { encoding: 'utf8', flag: 'wx', mode: 0o600 }),
  rename: (from, to) => fsp.rename(from, to),
  link: (from, to) => fsp.link(from, to),
  unlink: (path) => fsp.unlink(path),
  rmdir: (path) => fsp.rmdir(path),
  mkdir: async (path) => {
    await fsp.mkdir(path, { recursive: true, mode: 0o700 });
  },
  readdir: (path) => fsp.readdir(path),
  mtimeMs: async (path) => (await fsp.stat(path)).mtimeMs,
};
