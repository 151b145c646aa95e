/**
 * Soak of the document store under kill -9: 3 to 8 writer processes (scripts/soak/store-writer.ts)
 * update one document while this script SIGKILLs them at random moments, mostly in the middle of
 * moves and often while they hold the lock, and every few rounds stops them all, leaves a dead
 * holder's lock behind and starts a fresh set at once (the race that used to lose writes).
 *
 *   node --import tsx scripts/soak/store-kill.ts [--kills 1000] [--min-writers 3] [--max-writers 8] [--stale-every 10]
 *
 * Prints the acknowledged writes lost (an update whose promise resolved but whose token is not in
 * the final document), the revisions the audit log shows committed twice, and the files left beside
 * the document after one more clean write (temp files, lock leftovers). Exits 1 unless all are 0.
 * The CI suite runs a short version (test/state/soak.test.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { AUDIT_WARNING } from '../../state/audit-log.js';
import { createDocumentStore } from '../../state/document-store.js';
import { SoakDoc } from './soak-doc.js';

export interface SoakOptions {
  kills: number;
  minWriters: number;
  maxWriters: number;
  /** Every this many kills, a round that starts all writers at once against a dead holder's lock. */
  staleEvery: number;
  log?: (line: string) => void;
}

export interface SoakResult {
  kills: number;
  staleLockRounds: number;
  writerProcesses: number;
  acknowledged: number;
  lost: string[];
  committedTwice: number[];
  staleFiles: string[];
  auditWarnings: number;
  /** Stale locks the writers broke (each says so on stderr). */
  locksBroken: number;
  writerErrors: string[];
  seconds: number;
}

const ID = 'soak';
const KEPT = new Set([`${ID}.json`, `${ID}.audit.jsonl`]);

interface Writer {
  child: ChildProcess;
  /** Tokens whose line arrived whole: the update had resolved. */
  acked: string[];
  closed: Promise<void>;
  stderr: () => string;
}

const acknowledged = (writers: Writer[]) => writers.reduce((sum, writer) => sum + writer.acked.length, 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomInt = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));

export async function soakStoreKills(options: SoakOptions): Promise<SoakResult> {
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'parley-soak-'));
  const log = options.log ?? (() => undefined);
  try {
    const bundle = join(dir, 'store-writer.mjs');
    await build({ entryPoints: [fileURLToPath(new URL('./store-writer.ts', import.meta.url))], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: bundle, logLevel: 'silent' });
    const docDir = join(dir, 'state');
    const store = createDocumentStore({ dir: docDir, schema: SoakDoc, currentVersion: 1 });
    await store.create(ID, { count: 0, tokens: [] });

    const all: Writer[] = [];
    const start = (mode: 'write' | 'hold'): Writer => {
      const writer = spawnWriter(bundle, docDir, mode, `w${all.length}`);
      all.push(writer);
      return writer;
    };
    let kills = 0;
    let staleLockRounds = 0;
    const kill = async (writer: Writer) => {
      if (writer.child.exitCode === null && writer.child.signalCode === null && writer.child.kill('SIGKILL')) kills++;
      await writer.closed;
    };

    let pool = Array.from({ length: randomInt(options.minWriters, options.maxWriters) }, () => start('write'));
    let nextStaleRound = options.staleEvery;
    let nextLog = 100;
    while (kills < options.kills) {
      if (kills >= nextStaleRound) {
        nextStaleRound = kills + options.staleEvery;
        await Promise.all(pool.map(kill));
        const holder = start('hold');
        await Promise.race([firstLine(holder), holder.closed]);
        await kill(holder);
        staleLockRounds++;
        pool = Array.from({ length: randomInt(options.minWriters, options.maxWriters) }, () => start('write'));
        // let the fresh set race for the dead holder's lock before the next kill
        await waitFor(() => pool.some((writer) => writer.acked.length > 0), 5_000);
        continue;
      }
      // Killed in the middle of its moves: after a few more writes, a writer that is writing, at a random point of a commit.
      const target = acknowledged(all) + randomInt(0, 8);
      await waitFor(() => acknowledged(all) >= target, 3_000);
      await waitFor(() => pool.some((writer) => writer.acked.length > 0 || writer.child.exitCode !== null), 5_000);
      const writing = pool.filter((writer) => writer.acked.length > 0 || writer.child.exitCode !== null);
      const victim = writing[randomInt(0, writing.length - 1)] ?? pool[0]!;
      const index = pool.indexOf(victim);
      await sleep(Math.random() * 20);
      await kill(victim);
      pool[index] = start('write');
      const size = randomInt(options.minWriters, options.maxWriters);
      while (pool.length < size) pool.push(start('write'));
      while (pool.length > size) await kill(pool.pop()!);
      if (kills >= nextLog) {
        nextLog += 100;
        log(`${kills} kills, ${acknowledged(all)} acknowledged writes`);
      }
    }
    await Promise.all(pool.map(kill));

    // One more clean write, as the next parley would make: it breaks what is stale and sweeps.
    const after = createDocumentStore({ dir: docDir, schema: SoakDoc, currentVersion: 1 });
    await after.update(ID, (doc) => ({ value: { count: doc.count + 1, tokens: [...doc.tokens, 'final'] }, result: null }));
    const final = await after.read(ID);
    const present = new Set(final.value.tokens);
    const acked = all.flatMap((writer) => writer.acked);
    const audit = await after.auditLog(ID).readAll();
    const revisions = audit.filter((record) => record.type === 'soak' && record.changed === true).map((record) => Number(record.revision));
    const committedTwice = [...new Set(revisions.filter((revision, i) => revisions.indexOf(revision) !== i))];
    const stderrLines = all.flatMap((writer) => writer.stderr().split('\n')).filter((line) => line.trim() && !line.includes('--trace-warnings'));
    const isBreakWarning = (line: string) => line.includes('[PARLEY_STALE_LOCK]');
    return {
      kills,
      staleLockRounds,
      writerProcesses: all.length,
      acknowledged: acked.length,
      lost: acked.filter((token) => !present.has(token)),
      committedTwice,
      staleFiles: (await readdir(docDir)).filter((name) => !KEPT.has(name)),
      auditWarnings: audit.filter((record) => record.type === AUDIT_WARNING).length,
      locksBroken: stderrLines.filter(isBreakWarning).length,
      writerErrors: stderrLines.filter((line) => !isBreakWarning(line)),
      seconds: Math.round((performance.now() - started) / 1000),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function spawnWriter(bundle: string, dir: string, mode: 'write' | 'hold', name: string): Writer {
  const child = spawn(process.execPath, [bundle, dir, ID, mode, name], { stdio: ['ignore', 'pipe', 'pipe'] });
  const acked: string[] = [];
  let pending = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    acked.push(...lines.filter((line) => line !== 'held'));
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return { child, acked, closed, stderr: () => stderr };
}

function firstLine(writer: Writer): Promise<void> {
  return new Promise((resolve) => writer.child.stdout?.once('data', () => resolve()));
}

async function waitFor(condition: () => boolean, limitMs: number): Promise<void> {
  const deadline = performance.now() + limitMs;
  while (!condition() && performance.now() < deadline) await sleep(2);
}

export function formatSoak(result: SoakResult, options: SoakOptions): string {
  return [
    `store-kill soak: ${result.kills} kills (${result.staleLockRounds} rounds started against a dead holder's lock) of ${result.writerProcesses} writer processes, ` +
      `${options.minWriters}-${options.maxWriters} writing at once, ${result.seconds} s`,
    `acknowledged writes: ${result.acknowledged}`,
    `acknowledged writes lost: ${result.lost.length}${result.lost.length ? ` (${result.lost.slice(0, 10).join(', ')})` : ''}`,
    `revisions committed twice (audit log): ${result.committedTwice.length}`,
    `stale files left: ${result.staleFiles.length}${result.staleFiles.length ? ` (${result.staleFiles.slice(0, 10).join(', ')})` : ''}`,
    `stale locks broken by the writers: ${result.locksBroken}`,
    `audit lines cut by a kill (kept as warnings): ${result.auditWarnings}`,
    `writer error lines: ${result.writerErrors.length}${result.writerErrors.length ? `\n${result.writerErrors.slice(0, 5).join('\n')}` : ''}`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      kills: { type: 'string', default: '1000' },
      'min-writers': { type: 'string', default: '3' },
      'max-writers': { type: 'string', default: '8' },
      'stale-every': { type: 'string', default: '10' },
    },
  });
  const options: SoakOptions = {
    kills: Number(values.kills),
    minWriters: Number(values['min-writers']),
    maxWriters: Number(values['max-writers']),
    staleEvery: Number(values['stale-every']),
    log: (line) => console.error(line),
  };
  const result = await soakStoreKills(options);
  process.stdout.write(formatSoak(result, options) + '\n');
  const failed = result.lost.length + result.committedTwice.length + result.staleFiles.length + result.writerErrors.length;
  process.exitCode = failed === 0 ? 0 : 1;
}
