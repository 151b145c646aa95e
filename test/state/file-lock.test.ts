import { spawn } from 'node:child_process';
import { readFile, readdir, utimes, writeFile } from 'node:fs/promises';
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

describe('cross-process lock', () => {
  it('breaks a lock left by a dead process on this host without waiting for it to go stale', async () => {
    const store = await storeWith({ lockStaleMs: 600_000, lockTimeoutMs: 5_000 });
    await writeFile(lockPath, lockContent(await deadPid(), hostname(), Date.now()));
    expect((await store.update('d1', increment)).revision).toBe(2);
    expect(await readdir(dir)).not.toContain('d1.json.lock');
  });

  it('waits for a live holder and then reports lock-timeout, touching neither the lock nor the file', async () => {
    const store = await storeWith({ lockStaleMs: 600_000, lockTimeoutMs: 150 });
    const held = lockContent(process.ppid, hostname(), Date.now());
    await writeFile(lockPath, held);
    const error = await store.update('d1', increment).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'lock-timeout', path: lockPath });
    expect((error as Error).message).toMatch(new RegExp(`held by pid ${process.ppid}`));
    expect(await readFile(lockPath, 'utf8')).toBe(held);
    expect((await store.read('d1')).revision).toBe(1);
  });

  it('breaks a lock older than lockStaleMs even when its holder is on another host', async () => {
    const store = await storeWith({ lockStaleMs: 1_000, lockTimeoutMs: 5_000 });
    await writeFile(lockPath, lockContent(1, 'another-host', Date.now() - 60_000));
    expect((await store.update('d1', increment)).revision).toBe(2);
  });

  it('treats an empty lock file (a crash between create and write) as stale only once it is old', async () => {
    const store = await storeWith({ lockStaleMs: 600_000, lockTimeoutMs: 150 });
    await writeFile(lockPath, '');
    await expect(store.update('d1', increment)).rejects.toMatchObject({ kind: 'lock-timeout' });
    const past = new Date(Date.now() - 60_000);
    await utimes(lockPath, past, past);
    expect((await store.update('d1', increment)).revision).toBe(2);
  });

  it('puts back a live lock that a racing breaker took over before us', async () => {
    const live = lockContent(1, 'another-host', Date.now());
    // The stale lock is replaced by a live one between our read and our rename (another breaker won).
    const racingFs: FsSeam = {
      ...nodeFs,
      rename: async (from, to) => {
        if (from === lockPath) await writeFile(lockPath, live);
        await nodeFs.rename(from, to);
      },
    };
    await writeFile(lockPath, lockContent(await deadPid(), hostname(), Date.now()));
    await expect(acquireFileLock(lockPath, { fs: racingFs, staleMs: 600_000, timeoutMs: 150 })).rejects.toMatchObject({
      kind: 'lock-timeout',
    });
    expect(await readFile(lockPath, 'utf8')).toBe(live);
    expect((await readdir(dir)).filter((name) => name.includes('.stale-'))).toEqual([]);
  });

  it('a holder stalled past lockStaleMs notices its lock was broken: verify throws and release leaves the new lock', async () => {
    const lock = await acquireFileLock(lockPath, { fs: nodeFs, staleMs: 40, timeoutMs: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    const taker = await acquireFileLock(lockPath, { fs: nodeFs, staleMs: 40, timeoutMs: 1_000 });
    const takersContent = await readFile(lockPath, 'utf8');
    await expect(lock.verify()).rejects.toMatchObject({ kind: 'lock-timeout' });
    await lock.release();
    expect(await readFile(lockPath, 'utf8')).toBe(takersContent);
    await taker.release();
    expect(await readdir(dir)).toEqual([]);
  });
});
