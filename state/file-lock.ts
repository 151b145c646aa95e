import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
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
  /** Throws unless this lock is still ours with time to spare: call it last before an irreversible step. */
  verify(): Promise<void>;
  release(): Promise<void>;
}

interface LockContent {
  pid: number;
  host: string;
  token: string;
  at: number;
}

/** An owner file is complete before its folder appears at the lock path, so an unreadable one is a crash of the machine. */
const UNREADABLE_LOCK_GRACE_MS = 1000;
/** verify() refuses once this share of staleMs has passed: the rest is the margin for the commit's last step. */
const LEASE_SHARE = 0.8;
/** Removals per sweep of leftovers, so one acquisition never does unbounded work. */
const SWEEP_LIMIT = 64;
const thisHost = hostname();
const inProcessQueues = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` while holding the cross-process lock `lockPath`. Callers in this process queue on a
 * promise chain first, so the lock is only contended between processes.
 */
export async function withFileLock<T>(lockPath: string, options: LockOptions, fn: (lock: HeldLock) => Promise<T>): Promise<T> {
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
 * The lock is a folder at `lockPath` holding one owner file named by the holder's random token
 * ({pid, host, token, at}). Every step that changes the lock path is conditional, so no process can
 * ever remove a lock it did not judge stale:
 *  - acquire: build `<lock>.acq-<pid>-<token>/<token>` aside, then rename the folder onto the lock
 *    path; rename fails while the lock folder is non-empty, and a held lock is never empty;
 *  - break a stale lock: unlink that holder's owner file by its token (it names one holder only),
 *    then rmdir the lock folder, which fails if a new holder's folder has already taken the path;
 *  - release: the same two steps with our own token.
 * A holder killed with -9 on this host is detected at once (its pid is gone); elsewhere its lock is
 * broken once older than staleMs, and verify() stops a holder from committing once it has held its
 * lock for LEASE_SHARE of that, so two holders never both commit.
 */
export async function acquireFileLock(lockPath: string, options: LockOptions): Promise<HeldLock> {
  const { fs } = options;
  const token = randomBytes(8).toString('hex');
  const staging = `${lockPath}.acq-${process.pid}-${token}`;
  const refreshMs = Math.min(UNREADABLE_LOCK_GRACE_MS, options.staleMs / 4);
  const deadline = Date.now() + options.timeoutMs;
  let owner = await stage(fs, staging, token, false);
  let delayMs = 1;
  for (;;) {
    // A waiter's owner file is rewritten now and then, so the lock is young when it is finally taken.
    if (performance.now() - owner.writtenAt > refreshMs) owner = await stage(fs, staging, token, true);
    try {
      await fs.rename(staging, lockPath);
      return heldLock(lockPath, token, owner, fs, options.staleMs);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT') {
        owner = await stage(fs, staging, token, true); // our staging folder was swept, or the state folder was deleted
        continue;
      }
      if (!['EEXIST', 'ENOTEMPTY', 'ENOTDIR', 'EISDIR', 'EPERM', 'EACCES', 'EBUSY'].includes(code ?? '')) {
        await unstage(fs, staging, token);
        throw new StoreError('io', `cannot take lock ${lockPath}: ${(error as Error).message}`, { path: lockPath, cause: error });
      }
    }
    const holder = await inspect(fs, lockPath, options.staleMs);
    if (holder.state === 'stale') await holder.breakIt();
    const expired = Date.now() >= deadline;
    if (holder.state !== 'live' && !expired) continue;
    if (expired) {
      await unstage(fs, staging, token);
      const content = holder.state === 'live' ? holder.content : undefined;
      throw new StoreError(
        'lock-timeout',
        `timed out after ${options.timeoutMs} ms waiting for ${lockPath}` +
          (content ? ` (held by pid ${content.pid} on ${content.host})` : '') +
          '; if no parley process is running, delete the lock folder',
        { path: lockPath },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs + Math.random() * delayMs));
    delayMs = Math.min(delayMs * 2, 8);
  }
}

async function stage(fs: FsSeam, staging: string, token: string, again: boolean): Promise<{ content: string; writtenAt: number }> {
  const content = JSON.stringify({ pid: process.pid, host: thisHost, token, at: Date.now() } satisfies LockContent);
  const writtenAt = performance.now();
  await fs.mkdir(staging);
  if (again) await fs.unlink(join(staging, token)).catch(() => undefined);
  await fs.writeNewFile(join(staging, token), content);
  return { content, writtenAt };
}

async function unstage(fs: FsSeam, staging: string, token: string): Promise<void> {
  await fs.unlink(join(staging, token)).catch(() => undefined);
  await fs.rmdir(staging).catch(() => undefined);
}

function heldLock(lockPath: string, token: string, owner: { content: string; writtenAt: number }, fs: FsSeam, staleMs: number): HeldLock {
  const ownerPath = join(lockPath, token);
  return {
    async verify() {
      const heldMs = performance.now() - owner.writtenAt;
      if (heldMs > staleMs * LEASE_SHARE) {
        throw new StoreError('lock-timeout', `lock ${lockPath} was held ${Math.round(heldMs)} ms, too close to being judged stale; nothing written`, {
          path: lockPath,
        });
      }
      if ((await fs.readFile(ownerPath).catch(() => undefined)) !== owner.content) {
        throw new StoreError('lock-timeout', `lock ${lockPath} was broken by another process while held (token ${token}); nothing written`, {
          path: lockPath,
        });
      }
    },
    async release() {
      try {
        await fs.unlink(ownerPath);
      } catch {
        return; // broken while we held it: the folder is someone else's now
      }
      await fs.rmdir(lockPath).catch(() => undefined);
    },
  };
}

type Holder =
  | { state: 'gone' }
  | { state: 'live'; content?: LockContent }
  | { state: 'stale'; breakIt: () => Promise<void> };

/** Who holds the lock now, judged from its owner file (or a legacy lock file of an older parley). */
async function inspect(fs: FsSeam, lockPath: string, staleMs: number): Promise<Holder> {
  let names: string[];
  try {
    names = await fs.readdir(lockPath);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { state: 'gone' };
    if (errnoCode(error) === 'ENOTDIR') return inspectLegacy(fs, lockPath, staleMs);
    throw new StoreError('io', `cannot read lock ${lockPath}: ${(error as Error).message}`, { path: lockPath, cause: error });
  }
  // Empty: a breaker or releaser died between its two steps. Only an empty folder can be removed.
  if (names.length === 0) return { state: 'stale', breakIt: () => fs.rmdir(lockPath).catch(() => undefined) };
  const [name] = names;
  if (names.length > 1 || name === undefined) return { state: 'live' };
  const ownerPath = join(lockPath, name);
  const raw = await fs.readFile(ownerPath).catch(() => undefined);
  if (raw === undefined) return { state: 'gone' };
  const content = parseLock(raw);
  if (!(await isStale(fs, ownerPath, content, staleMs))) return { state: 'live', ...(content && { content }) };
  return {
    state: 'stale',
    async breakIt() {
      try {
        await fs.unlink(ownerPath);
      } catch {
        return; // another process broke it first
      }
      await fs.rmdir(lockPath).catch(() => undefined);
      process.emitWarning(`parley: broke stale lock ${lockPath}`, { code: 'PARLEY_STALE_LOCK' });
    },
  };
}

/**
 * A lock file written by parley before 0.2 (a plain O_EXCL file). Broken by a rename to a unique
 * name; if what moved is not the lock judged stale, it is put back with link(), never overwriting.
 */
async function inspectLegacy(fs: FsSeam, lockPath: string, staleMs: number): Promise<Holder> {
  const raw = await fs.readFile(lockPath).catch(() => undefined);
  if (raw === undefined) return { state: 'gone' };
  const content = parseLock(raw);
  if (!(await isStale(fs, lockPath, content, staleMs))) return { state: 'live', ...(content && { content }) };
  return {
    state: 'stale',
    async breakIt() {
      const aside = `${lockPath}.stale-${randomBytes(8).toString('hex')}`;
      if (!(await fs.rename(lockPath, aside).then(() => true, () => false))) return;
      const moved = await fs.readFile(aside).catch(() => undefined);
      if (moved !== undefined && moved !== raw) await fs.link(aside, lockPath).catch(() => undefined);
      await fs.unlink(aside).catch(() => undefined);
    },
  };
}

function parseLock(raw: string): LockContent | undefined {
  try {
    const value = JSON.parse(raw) as Partial<LockContent>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.at === 'number') return value as LockContent;
  } catch {
    // torn: judged by its age
  }
  return undefined;
}

async function isStale(fs: FsSeam, path: string, holder: LockContent | undefined, staleMs: number): Promise<boolean> {
  if (!holder) {
    const mtime = await fs.mtimeMs(path).catch(() => undefined);
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
 * Removes what killed processes left beside `lockPath`: staging folders of dead waiters and the
 * `.stale-*` files of older parleys. At most SWEEP_LIMIT removals; `names` is the folder listing.
 */
export async function sweepLockLeftovers(lockPath: string, names: string[], options: Pick<LockOptions, 'fs' | 'staleMs'>): Promise<number> {
  const { fs, staleMs } = options;
  const base = basename(lockPath);
  let removed = 0;
  for (const name of names) {
    if (removed >= SWEEP_LIMIT) break;
    const path = join(dirname(lockPath), name);
    const staging = name.startsWith(`${base}.acq-`) ? /^(\d+)-([0-9a-f]+)$/.exec(name.slice(base.length + 5)) : null;
    if (staging) {
      const [, pid, token] = staging;
      const content = parseLock(await fs.readFile(join(path, token!)).catch(() => ''));
      const dead = Number(pid) !== process.pid && (content ? content.host === thisHost : true) && !isProcessAlive(Number(pid));
      if (dead || (await olderThan(fs, path, staleMs))) {
        await unstage(fs, path, token!);
        removed++;
      }
    } else if (name.startsWith(`${base}.stale-`) && (await olderThan(fs, path, staleMs))) {
      await fs.unlink(path).catch(() => undefined);
      removed++;
    }
  }
  return removed;
}

export async function olderThan(fs: FsSeam, path: string, ms: number): Promise<boolean> {
  const mtime = await fs.mtimeMs(path).catch(() => undefined);
  return mtime !== undefined && Date.now() - mtime > ms;
}
