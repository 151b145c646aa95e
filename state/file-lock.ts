import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FsSeam } from './fs-seam.js';
import { StoreError, errnoCode } from './store-error.js';

export interface LockOptions {
  fs: FsSeam;
  /** A lock older than this is broken even if its holder looks alive (other host, reused pid). */
  staleMs: number;
  /** Give up waiting after this long with StoreError('lock-timeout'). */
  timeoutMs: number;
}

export interface HeldLock {
  /** Throws if another process broke this lock (we were stalled past staleMs): never commit then. */
  verify(): Promise<void>;
  release(): Promise<void>;
}

interface LockContent {
  pid: number;
  host: string;
  token: string;
  at: number;
}

/** A live holder writes its content in the same call that creates the file, so an empty lock is a crash. */
const UNREADABLE_LOCK_GRACE_MS = 1000;
const thisHost = hostname();
const inProcessQueues = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` while holding the cross-process lock `lockPath`. Callers in this process queue on a
 * promise chain first, so the lock file is only contended between processes.
 */
export async function withFileLock<T>(
  lockPath: string,
  options: LockOptions,
  fn: (lock: HeldLock) => Promise<T>,
): Promise<T> {
  const previous = inProcessQueues.get(lockPath) ?? Promise.resolve();
  const run = previous.then(async () => {
    const lock = await acquireFileLock(lockPath, options);
    try {
      return await fn(lock);
    } finally {
      await lock.release();
    }
  });
  const settled = run.catch(() => undefined);
  inProcessQueues.set(lockPath, settled);
  void settled.then(() => {
    if (inProcessQueues.get(lockPath) === settled) inProcessQueues.delete(lockPath);
  });
  return run;
}

/**
 * An O_EXCL lock file holding {pid, host, token, at}. Chosen over proper-lockfile because a holder
 * killed with -9 on this host is detected at once (its pid is gone) instead of after an mtime
 * timeout, and because no refresh timer is needed for a lock held a few milliseconds.
 */
export async function acquireFileLock(lockPath: string, options: LockOptions): Promise<HeldLock> {
  const { fs } = options;
  const token = randomBytes(8).toString('hex');
  const content = JSON.stringify({ pid: process.pid, host: thisHost, token, at: Date.now() } satisfies LockContent);
  const deadline = Date.now() + options.timeoutMs;
  let delayMs = 1;
  for (;;) {
    try {
      await fs.writeNewFile(lockPath, content);
      return heldLock(lockPath, token, content, fs, options.staleMs);
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') {
        throw new StoreError('io', `cannot create lock ${lockPath}: ${(error as Error).message}`, { path: lockPath, cause: error });
      }
    }
    const raw = await fs.readFile(lockPath).catch(() => undefined);
    if (raw === undefined) continue; // released between our attempt and our read
    if (await isStale(fs, lockPath, raw, options.staleMs)) {
      await breakStaleLock(fs, lockPath, raw, token);
      continue;
    }
    if (Date.now() >= deadline) {
      const holder = parseLock(raw);
      throw new StoreError(
        'lock-timeout',
        `timed out after ${options.timeoutMs} ms waiting for ${lockPath}` +
          (holder ? ` (held by pid ${holder.pid} on ${holder.host})` : '') +
          '; if no parley process is running, delete the lock file',
        { path: lockPath },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs + Math.random() * delayMs));
    delayMs = Math.min(delayMs * 2, 8);
  }
}

function heldLock(lockPath: string, token: string, content: string, fs: FsSeam, staleMs: number): HeldLock {
  const acquiredAt = performance.now();
  // Nobody breaks a lock younger than staleMs whose holder is alive, so the re-read is only
  // needed once we have held it that long (a stalled process, a suspended laptop).
  const mayHaveBeenBroken = () => performance.now() - acquiredAt > staleMs / 2;
  const stillOurs = async () => (await fs.readFile(lockPath).catch(() => undefined)) === content;
  return {
    async verify() {
      if (mayHaveBeenBroken() && !(await stillOurs())) {
        throw new StoreError('lock-timeout', `lock ${lockPath} was broken by another process while held (token ${token}); nothing written`, {
          path: lockPath,
        });
      }
    },
    async release() {
      // Never delete a lock that another process took over after breaking ours.
      if (mayHaveBeenBroken() && !(await stillOurs())) return;
      await fs.unlink(lockPath).catch(() => undefined);
    },
  };
}

function parseLock(raw: string): LockContent | undefined {
  try {
    const value = JSON.parse(raw) as Partial<LockContent>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.at === 'number') {
      return value as LockContent;
    }
  } catch {
    // an empty or torn lock file: judged by its age below
  }
  return undefined;
}

async function isStale(fs: FsSeam, lockPath: string, raw: string, staleMs: number): Promise<boolean> {
  const holder = parseLock(raw);
  if (!holder) {
    const mtime = await fs.mtimeMs(lockPath).catch(() => undefined);
    return mtime !== undefined && Date.now() - mtime > Math.min(staleMs, UNREADABLE_LOCK_GRACE_MS);
  }
  if (holder.host === thisHost && holder.pid !== process.pid && !isProcessAlive(holder.pid)) return true;
  return Date.now() - holder.at > staleMs;
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === 'EPERM';
  }
}

/**
 * Moves the stale lock aside and checks that what moved is the lock judged stale. If another
 * breaker got there first and a new holder already took the path, we moved a live lock: it is
 * put back with link(), which never overwrites a lock taken in the meantime.
 */
async function breakStaleLock(fs: FsSeam, lockPath: string, staleRaw: string, token: string): Promise<void> {
  const aside = `${lockPath}.stale-${token}`;
  try {
    await fs.rename(lockPath, aside);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return;
    throw new StoreError('io', `cannot break stale lock ${lockPath}: ${(error as Error).message}`, { path: lockPath, cause: error });
  }
  const moved = await fs.readFile(aside).catch(() => undefined);
  const tookLiveLock = moved !== undefined && moved !== staleRaw;
  if (tookLiveLock) await fs.link(aside, lockPath).catch(() => undefined);
  await fs.unlink(aside).catch(() => undefined);
  if (!tookLiveLock) process.emitWarning(`parley: broke stale lock ${lockPath}`, { code: 'PARLEY_STALE_LOCK' });
}
