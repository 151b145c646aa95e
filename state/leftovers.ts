import { basename, dirname, join } from 'node:path';
import { TEMP_FILE_PATTERN } from './atomic-write.js';
import { isProcessAlive, olderThan, sweepLockLeftovers } from './file-lock.js';
import type { FsSeam } from './fs-seam.js';
import { REPORT_SUFFIX } from './locations.js';

/** Removals per sweep, so one write never does unbounded work. */
const SWEEP_LIMIT = 64;

/**
 * Removes what killed writers left beside a state file: the temp file of a write cut short (of the
 * state file or of a file derived from it, `<id>.report.md`), the staging folder of a lock waiter, an
 * older parley's `.lock.stale-*` file. Runs under the document's lock, so no live writer of this
 * document is using a temp file: a dead writer's (its pid is gone) goes at once, anything else once
 * older than staleMs.
 */
export async function sweepLeftovers(fs: FsSeam, statePath: string, staleMs: number): Promise<number> {
  const dir = dirname(statePath);
  const base = basename(statePath);
  const report = base.replace(/\.json$/, REPORT_SUFFIX);
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return 0;
  }
  const removed = await sweepLockLeftovers(`${statePath}.lock`, names, { fs, staleMs });
  return removed + (await sweepTempFiles(fs, dir, names, staleMs, (target) => target === base || target === report, SWEEP_LIMIT - removed));
}

/**
 * Removes temp files of writes cut short in `dir` (only of the files `target` accepts, when given): a
 * dead writer's (its pid is gone) at once, any other once older than staleMs. For a folder whose
 * writers hold its lock (a state file's, a run folder's): no live writer is then using one.
 */
export async function sweepTempFiles(fs: FsSeam, dir: string, names: string[], staleMs: number, target?: (name: string) => boolean, limit = SWEEP_LIMIT): Promise<number> {
  let removed = 0;
  for (const name of names) {
    if (removed >= limit) break;
    const match = TEMP_FILE_PATTERN.exec(name);
    if (!match || (target && !target(match[1]!))) continue;
    const pid = Number(match[2]);
    const path = join(dir, name);
    const dead = pid !== process.pid && !isProcessAlive(pid);
    if (dead || (await olderThan(fs, path, staleMs))) {
      await fs.unlink(path).catch(() => undefined);
      removed++;
    }
  }
  return removed;
}
