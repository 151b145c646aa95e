import { join, resolve } from 'node:path';
import type { PriceTable } from '../schemas/sweep.js';
import { UserFacingError } from '../schemas/user-facing-error.js';
import { writeJsonFileAtomic } from '../state/atomic-write.js';
import { acquireFileLock, sweepLockLeftovers } from '../state/file-lock.js';
import { nodeFs } from '../state/fs-seam.js';
import { sweepTempFiles } from '../state/leftovers.js';
import { keepPrivate, makePrivateDir, openPrivateAuditLog } from '../state/private-files.js';
import { isStoreError } from '../state/store-error.js';
import type { Backend } from '../wrapper/backend.js';
import { createBackend } from '../wrapper/model-spec.js';
import { recordRunConfig, runConfigHash, type RunConfig } from './run-config.js';
import type { RunContext, RunProgress } from './run-protocol.js';
import { spendFromAudit, type Spend } from './sweep/spend.js';

/**
 * Running a protocol in a run folder, for the server, the CLI and sweeps alike: the folder and its
 * lock, the audit log (a rerun on the same folder resumes from it), the output file, the spend.
 */

export const runFolderFiles = (dir: string) => ({ dir, audit: join(dir, 'audit.jsonl'), lock: join(dir, 'run.lock') });
export type RunFolderFiles = ReturnType<typeof runFolderFiles>;

/** A run's lock is held for the whole run: only a dead holder's lock (same host) is broken. */
const LOCK_STALE_MS = 24 * 60 * 60 * 1000;
const LOCK_WAIT_MS = 250;

export interface RunFolderLock {
  readonly dir: string;
  /** The hash of the configuration checked when the folder was taken. */
  readonly configHash?: string;
  release(): Promise<void>;
}

/** What the run in the folder is: recorded in a fresh folder, checked against the record in another (run-config.ts). */
export interface RunFolderClaim {
  config: RunConfig;
  /** How the caller starts a fresh run instead, completing "to start a fresh run, ...". */
  freshRun?: string;
}

/**
 * Takes the run folder (creating it private); refuses with a UserFacingError while another run holds
 * it, or, given the run's configuration, when the folder holds a run of another one (then nothing in
 * the folder changed).
 */
export async function lockRunFolder(folder: string, claim?: RunFolderClaim): Promise<RunFolderLock> {
  const files = runFolderFiles(resolve(folder));
  await makePrivateDir(files.dir);
  await keepPrivate(files.dir);
  const options = { fs: nodeFs, staleMs: LOCK_STALE_MS, timeoutMs: LOCK_WAIT_MS };
  await sweepLockLeftovers(files.lock, await nodeFs.readdir(files.dir), options);
  const held = await acquireFileLock(files.lock, options).catch(async (error: unknown) => {
    if (!isStoreError(error, 'lock-timeout')) throw error;
    throw new UserFacingError(
      `the run folder ${files.dir} is in use by another run${await holderOf(files.lock)}; wait for it to end or stop it first. ` +
        `If no parley process is running, delete ${files.lock}`,
      { code: 'run-folder-busy' },
    );
  });
  try {
    if (claim) await recordRunConfig(files.dir, claim.config, claim.freshRun);
    // Temp files of writes a killed run cut short (output, meta): no one else writes here while the lock is held.
    await sweepTempFiles(nodeFs, files.dir, await nodeFs.readdir(files.dir).catch(() => []), LOCK_STALE_MS);
  } catch (error) {
    await held.release();
    throw error;
  }
  return { dir: files.dir, ...(claim && { configHash: runConfigHash(claim.config) }), release: () => held.release() };
}

async function holderOf(lockPath: string): Promise<string> {
  try {
    const [owner] = await nodeFs.readdir(lockPath);
    const { pid, host } = JSON.parse(await nodeFs.readFile(join(lockPath, owner ?? ''))) as { pid?: unknown; host?: unknown };
    return typeof pid === 'number' && typeof host === 'string' ? ` (pid ${pid} on ${host})` : '';
  } catch {
    return '';
  }
}

export interface RunInFolderOptions<Result> {
  /** The run folder: audit.jsonl, run.lock and the protocol's own files (e.g. baseline.json). */
  dir: string;
  /** Where the output goes, written when the run ends (and whenever the protocol calls `save`). */
  outPath: string;
  runId: string;
  /** The protocol; `save` writes a partial output (e.g. a debate after every round). */
  run(ctx: RunContext, save: (output: unknown) => Promise<void>): Promise<Result>;
  /** What of the result is the output file (default: all of it). */
  output?(result: Result): unknown;
  /** Default: one backend per spec, made from the spec. */
  backendFor?(spec: string): Backend;
  signal?: AbortSignal;
  onProgress?(update: RunProgress): void;
  now?(): Date;
  /** Prices for the spend (default none: costUsd is null). */
  prices?: PriceTable;
  /** The run's configuration: a rerun into the folder resumes only the same one (lockRunFolder). */
  claim?: RunFolderClaim;
  /** A lock already taken with lockRunFolder (the server refuses before it answers), with the same claim; released at the end. */
  lock?: RunFolderLock;
}

/** A failed or canceled run is an outcome too: what it spent before it stopped still counts. */
export type RunInFolderOutcome<Result> = { spend: Spend; files: RunFolderFiles & { output: string } } & (
  | { ok: true; result: Result }
  | { ok: false; error: unknown }
);

/** Runs (or resumes) a protocol in its folder. Throws only when the folder cannot be taken. */
export async function runInFolder<Result>(options: RunInFolderOptions<Result>): Promise<RunInFolderOutcome<Result>> {
  const files = { ...runFolderFiles(resolve(options.dir)), output: resolve(options.outPath) };
  if (options.lock && options.lock.dir !== files.dir) throw new Error(`runInFolder: the lock is for ${options.lock.dir}, not ${files.dir}`);
  if (options.lock && options.lock.configHash !== (options.claim && runConfigHash(options.claim.config))) {
    throw new Error(`runInFolder: the lock on ${files.dir} was taken for another configuration`);
  }
  const lock = options.lock ?? (await lockRunFolder(files.dir, options.claim));
  try {
    const audit = await openPrivateAuditLog(files.audit);
    const save = (output: unknown) => writeJsonFileAtomic(files.output, output);
    const ctx: RunContext = {
      runId: options.runId,
      dir: files.dir,
      audit,
      backendFor: options.backendFor ?? backendCache(),
      signal: options.signal ?? new AbortController().signal,
      progress: options.onProgress ?? (() => undefined),
      now: options.now ?? (() => new Date()),
    };
    let ended: { ok: true; result: Result } | { ok: false; error: unknown };
    try {
      const result = await options.run(ctx, save);
      await save(options.output ? options.output(result) : result);
      ended = { ok: true, result };
    } catch (error) {
      ended = { ok: false, error };
    }
    return { ...ended, spend: spendFromAudit(await audit.readAll(), options.prices ?? {}), files };
  } finally {
    await lock.release();
  }
}

function backendCache(): (spec: string) => Backend {
  const backends = new Map<string, Backend>();
  return (spec) => {
    let backend = backends.get(spec);
    if (!backend) {
      backend = createBackend(spec);
      backends.set(spec, backend);
    }
    return backend;
  };
}
