import { spawn } from 'node:child_process';
import { mkdir, readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentStore, type DocumentStore } from '../../state/document-store.js';
import { acquireFileLock, isProcessAlive } from '../../state/file-lock.js';
import { nodeFs, type FsSeam } from '../../state/fs-seam.js';
import { CounterDoc, makeTempDir } from './helpers.js';
import { exited } from './processes.js';

let dir: string;
let cleanup: () => Promise<void>;
let lockPath: string;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  lockPath = join(dir, 'd1.json.lock');
});
afterEach(() => cleanup());

const lockContent = (pid: number, host: string, at: number) => JSON.stringify({ pid, host, token: 'other', at });
const increment = (doc: CounterDoc) => ({ value: { ...doc, count: doc.count + 1 }, result: null });

async function storeWith(options: { lockStaleMs: number; lockTimeoutMs: number; fs?: FsSeam }): Promise<DocumentStore<CounterDoc>> {
  const store = createDocumentStore({ dir, schema: CounterDoc, currentVersion: 1, ...options });
  await store.create('d1', { count: 0, writers: [] });
  return store;
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await exited(child);
  expect(isProcessAlive(child.pid!)).toBe(false);
  return child.pid!;
}

/** A lock as a holder leaves it: the lock folder with one owner file named by its token. */
async function plantLock(content: string, token = 'other'): Promise<string> {
  await mkdir(lockPath);
  await writeFile(join(lockPath, token), content);
  return join(lockPath, token);
}

describe('cross-process lock', () => {
  it('breaks a lock left by a dead process on this host without waiting for it to go stale', async () => {
    const store = await storeWith({ lockStaleMs: 600_000, lockTimeoutMs: 5_000 });
    await plantLock(lockContent(await deadPid(), hostname(), Date.now()));
    expect((await store.update('d1', increment)).revision).toBe(2);
    expect(await readdir(dir)).not.toContain('d1.json.lock');
  });

  it('waits for a live holder and then reports lock-timeout, touching neither the lock nor the file', async () => {
    const store = await storeWith({ lockStaleMs: 600_000, lockTimeoutMs: 150 });
    const held = lockContent(process.ppid, hostname(), Date.now());
    const owner = await plantLock(held);
    const error = await store.update('d1', increment).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'lock-timeout', path: lockPath });
    expect((error as Error).message).toMatch(new RegExp(`held by pid ${process.ppid}`));
    expect(await readFile(owner, 'utf8')).toBe(held);
    expect((await store.read('d1')).revision).toBe(1);
    // the waiter's staging folder went with it
    expect((await readdir(dir)).sort()).toEqual(['d1.json', 'd1.json.lock']);
  });

  it('breaks a lock older than lockStaleMs even when its holder is on another host', async () => {
    const store = await storeWith({ lockStaleMs: 1_000, lockTimeoutMs: 5_000 });
    await plantLock(lockContent(1, 'another-host', Date.now() - 60_000));
    expect((await store.update('d1', increment)).revision).toBe(2);
  });

  it('treats an unreadable owner file (a machine crash) as stale only once it is old, and an empty lock folder at once', async () => {
    const store = await storeWith({ lockStaleMs: 600_000, lockTimeoutMs: 150 });
    const owner = await plantLock('');
    await expect(store.update('d1', increment)).rejects.toMatchObject({ kind: 'lock-timeout' });
    const past = new Date(Date.now() - 60_000);
    await utimes(owner, past, past);
    expect((await store.update('d1', increment)).revision).toBe(2);
    await mkdir(lockPath);
    expect((await store.update('d1', increment)).revision).toBe(3);
  });

  it('breaks the lock file of an older parley whose holder is dead', async () => {
    const store = await storeWith({ lockStaleMs: 600_000, lockTimeoutMs: 5_000 });
    await writeFile(lockPath, lockContent(await deadPid(), hostname(), Date.now()));
    expect((await store.update('d1', increment)).revision).toBe(2);
    expect((await readdir(dir)).sort()).toEqual(['d1.json']);
  });

  it('a breaker that lost the race to another breaker never removes the lock the winner took', async () => {
    await plantLock(lockContent(await deadPid(), hostname(), Date.now()), 'dead');
    let winner: Awaited<ReturnType<typeof acquireFileLock>> | undefined;
    // Between our judging the lock stale and our unlinking its owner file, another process breaks it and takes the lock.
    const racingFs: FsSeam = {
      ...nodeFs,
      unlink: async (path) => {
        if (path === join(lockPath, 'dead') && !winner) winner = await acquireFileLock(lockPath, { fs: nodeFs, staleMs: 600_000, timeoutMs: 1_000 });
        await nodeFs.unlink(path);
      },
    };
    await expect(acquireFileLock(lockPath, { fs: racingFs, staleMs: 600_000, timeoutMs: 150 })).rejects.toMatchObject({ kind: 'lock-timeout' });
    await expect(winner!.verify()).resolves.toBeUndefined();
    await winner!.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('a breaker whose lock folder was taken between its two steps leaves the new holder alone', async () => {
    await plantLock(lockContent(await deadPid(), hostname(), Date.now()), 'dead');
    let winner: Awaited<ReturnType<typeof acquireFileLock>> | undefined;
    // We unlinked the dead owner; before our rmdir, another process takes the (now empty) lock folder.
    const racingFs: FsSeam = {
      ...nodeFs,
      rmdir: async (path) => {
        if (path === lockPath && !winner) winner = await acquireFileLock(lockPath, { fs: nodeFs, staleMs: 600_000, timeoutMs: 1_000 });
        await nodeFs.rmdir(path);
      },
    };
    await expect(acquireFileLock(lockPath, { fs: racingFs, staleMs: 600_000, timeoutMs: 150 })).rejects.toMatchObject({ kind: 'lock-timeout' });
    await expect(winner!.verify()).resolves.toBeUndefined();
    await winner!.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('a holder stalled past lockStaleMs cannot commit: verify throws and release leaves the new lock', async () => {
    const lock = await acquireFileLock(lockPath, { fs: nodeFs, staleMs: 40, timeoutMs: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    const taker = await acquireFileLock(lockPath, { fs: nodeFs, staleMs: 40, timeoutMs: 1_000 });
    const takers = await readdir(lockPath);
    await expect(lock.verify()).rejects.toMatchObject({ kind: 'lock-timeout' });
    await lock.release();
    expect(await readdir(lockPath)).toEqual(takers);
    await taker.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('verify refuses once most of the lease is gone, even if nobody broke the lock', async () => {
    const lock = await acquireFileLock(lockPath, { fs: nodeFs, staleMs: 50, timeoutMs: 1_000 });
    await expect(lock.verify()).resolves.toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 45));
    await expect(lock.verify()).rejects.toMatchObject({ kind: 'lock-timeout', message: expect.stringMatching(/too close to being judged stale/) });
    await lock.release();
  });

  it('the next write sweeps what killed writers left: temp files, staging folders, old .stale- files', async () => {
    await storeWith({ lockStaleMs: 600_000, lockTimeoutMs: 1_000 });
    const dead = await deadPid();
    const names = [`.d1.json.${dead}.abcdefabcdef.tmp`, `d1.json.lock.acq-${dead}-00aa11bb22cc33dd`, 'd1.json.lock.stale-0011223344556677'];
    await writeFile(join(dir, names[0]!), 'partial');
    await mkdir(join(dir, names[1]!));
    await writeFile(join(dir, names[1]!, '00aa11bb22cc33dd'), lockContent(dead, hostname(), Date.now()));
    await writeFile(join(dir, names[2]!), lockContent(dead, hostname(), Date.now()));
    const past = new Date(Date.now() - 3_600_000);
    await utimes(join(dir, names[2]!), past, past);
    // Not this write's to touch: a live process's temp, another document's temp.
    const kept = [`.d1.json.${process.ppid}.abcdefabcdef.tmp`, `.d2.json.${dead}.abcdefabcdef.tmp`];
    for (const name of kept) await writeFile(join(dir, name), 'partial');
    // A fresh store (another process, say): its first write sweeps.
    const fresh = createDocumentStore({ dir, schema: CounterDoc, currentVersion: 1, lockStaleMs: 600_000 });
    expect((await fresh.update('d1', increment)).revision).toBe(2);
    expect((await readdir(dir)).sort()).toEqual([...kept, 'd1.json'].sort());
  });
});
