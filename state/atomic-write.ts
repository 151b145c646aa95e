import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { nodeFs, type FsSeam } from './fs-seam.js';
import { errnoCode } from './store-error.js';
import { redact } from '../schemas/secrets.js';

/** Temp files are hidden, carry the writer's pid (so leftovers of dead writers can be swept) and end in `.tmp`. */
export function tempPathFor(path: string, pid = process.pid): string {
  return join(dirname(path), `.${basename(path)}.${pid}.${randomBytes(6).toString('hex')}.tmp`);
}

export const TEMP_FILE_PATTERN = /^\.(.+)\.(\d+)\.[0-9a-f]{12}\.tmp$/;

/**
 * Replaces `path` with `data` so that a reader (or a crash) sees either the old file or the new
 * one, never a mix: temp file in the same folder, fdatasync, rename over, fsync the folder.
 * On any failure the temp file is removed and the old file is left as it was.
 */
export async function writeFileAtomic(fs: FsSeam, path: string, data: string): Promise<void> {
  await replaceFile(fs, path, data);
  await syncDirectory(fs, dirname(path));
}

/**
 * The first half of writeFileAtomic: after it resolves the new content is in place but the rename may
 * not be durable yet. Known secrets are scrubbed here, so no state or run file ever holds one.
 * `beforeRename` runs once the data is on disk, last before the rename (the store's lock check).
 */
export async function replaceFile(fs: FsSeam, path: string, data: string, beforeRename?: () => Promise<void>): Promise<void> {
  const temp = tempPathFor(path);
  let renamed = false;
  try {
    const handle = await fs.open(temp, 'wx');
    try {
      await handle.writeFile(redact(data));
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await beforeRename?.();
    await fs.rename(temp, path);
    renamed = true;
  } finally {
    if (!renamed) await fs.unlink(temp).catch(() => undefined);
  }
}

/** Makes renames and unlinks in `dir` durable. Platforms that cannot open a folder (Windows) skip it. */
export async function syncDirectory(fs: FsSeam, dir: string): Promise<void> {
  let handle;
  try {
    handle = await fs.open(dir, 'r');
  } catch (error) {
    if (['EISDIR', 'EPERM', 'EACCES'].includes(errnoCode(error) ?? '')) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!['EINVAL', 'EBADF', 'EPERM'].includes(errnoCode(error) ?? '')) throw error;
  } finally {
    await handle.close();
  }
}

/** Pretty JSON written atomically and durably, creating its folder: run outputs, manifests, metadata. */
export async function writeJsonFileAtomic(path: string, value: unknown, fs: FsSeam = nodeFs): Promise<void> {
  await fs.mkdir(dirname(path));
  await writeFileAtomic(fs, path, JSON.stringify(value, null, 2) + '\n');
}
