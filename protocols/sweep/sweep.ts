import { access, mkdir, readFile } from 'node:fs/promises';
import { getMaxListeners, setMaxListeners } from 'node:events';
import { join, resolve } from 'node:path';
import pLimit from 'p-limit';
import { addUsage, zeroUsage, type Usage } from '../../schemas/common.js';
import { SWEEP_MANIFEST_VERSION, SweepManifest, type PriceTable, type SweepMatrix, type SweepRunPlan, type SweepRunResult } from '../../schemas/sweep.js';
import type { Backend } from '../../wrapper/backend.js';
import { SweepBackends } from './backends.js';
import { expandSweep, selectShard, sweepHashOf, type Shard } from './matrix.js';
import { mergePrices } from './pricing.js';
import { assertPlanConfigs, readRunResult, runFiles, runOne } from './run-one.js';
import { addSpends, type Spend } from './spend.js';
import { writeJsonFileAtomic } from '../../state/atomic-write.js';
import { UserFacingError } from '../../schemas/user-facing-error.js';
import { configDifferences } from '../run-config.js';

export type SweepEvent =
  | { type: 'planned'; total: number; inShard: number; finished: number; toRun: number }
  | { type: 'run-started'; id: string; resumed: boolean }
  | { type: 'run-progress'; id: string; message: string }
  | { type: 'run-finished'; id: string; result: SweepRunResult }
  | { type: 'tokens'; usage: Usage }
  | { type: 'rate-limited'; spec: string; retry: number };

export interface SweepOptions {
  outDir: string;
  /** Runs in flight at once. */
  concurrency: number;
  shard?: Shard;
  /** Price overrides on top of the defaults and the sweep file's own. */
  prices?: PriceTable;
  /** Call limits per backend on top of the sweep file's `perBackend`. */
  perBackend?: Record<string, number>;
  signal?: AbortSignal;
  onEvent?: (event: SweepEvent) => void;
  /** How backends are made; default the real ones from their specs. */
  createBackend?: (spec: string) => Backend;
  now?: () => Date;
}

export interface SweepReport {
  dir: string;
  manifest: SweepManifest;
  /** Ids run (or continued) by this invocation, and those found finished already. */
  ran: string[];
  skipped: string[];
  failed: string[];
  /** Over every finished or failed run in the folder. */
  totals: Spend & { runs: number };
}

export const MANIFEST_FILE = 'sweep.json';
export const TOTALS_FILE = 'totals.json';

/**
 * Runs this shard of a sweep into `outDir`, skipping runs already finished there and continuing
 * interrupted ones from their audit logs. Failed runs are tried again (from their logs too).
 */
export async function runSweep(matrix: SweepMatrix, options: SweepOptions): Promise<SweepReport> {
  const dir = resolve(options.outDir);
  const shard = options.shard ?? { index: 1, count: 1 };
  const all = expandSweep(matrix);
  const mine = selectShard(all, shard);
  assertPlanConfigs(mine);
  await mkdir(dir, { recursive: true });
  const prices = mergePrices(matrix.prices, options.prices);
  const manifest = await recordManifest(dir, matrix, all, mine, shard, prices);
  const emit = options.onEvent ?? (() => undefined);

  const finished = new Set<string>();
  for (const plan of mine) if ((await readRunResult(dir, plan.id))?.status === 'ok') finished.add(plan.id);
  const toRun = mine.filter((plan) => !finished.has(plan.id));
  emit({ type: 'planned', total: all.length, inShard: mine.length, finished: finished.size, toRun: toRun.length });

  let liveUsage = zeroUsage();
  const backends = new SweepBackends({
    perBackend: { ...matrix.perBackend, ...options.perBackend },
    retry: matrix.retry,
    seedPerRun: matrix.seedPerRun,
    ...(options.createBackend && { create: options.createBackend }),
    onUsage: (usage) => {
      liveUsage = addUsage(liveUsage, usage);
      emit({ type: 'tokens', usage: liveUsage });
    },
    onRateLimited: (spec, retry) => emit({ type: 'rate-limited', spec, retry }),
  });
  const signal = options.signal ?? new AbortController().signal;
  const limit = pLimit(Math.max(1, options.concurrency));
  setMaxListeners(Math.max(getMaxListeners(signal), options.concurrency + 10), signal);
  const ran: string[] = [];
  const failed: string[] = [];
  await Promise.all(
    toRun.map((plan) =>
      limit(async () => {
        if (signal.aborted) return;
        const resumed = await access(runFiles(dir, plan.id).audit).then(() => true, () => false);
        emit({ type: 'run-started', id: plan.id, resumed });
        // One signal per run: a run's many call listeners stay off the sweep's own signal.
        const run = new AbortController();
        const abortRun = () => run.abort(signal.reason);
        signal.addEventListener('abort', abortRun, { once: true });
        const result = await runOne(plan, {
          sweepDir: dir,
          backendFor: backends.forRun(plan.id),
          prices,
          signal: run.signal,
          onProgress: (update) => emit({ type: 'run-progress', id: plan.id, message: update.message }),
          ...(options.now && { now: options.now }),
        }).finally(() => signal.removeEventListener('abort', abortRun));
        if (!result) return;
        ran.push(plan.id);
        if (result.status === 'failed') failed.push(plan.id);
        emit({ type: 'run-finished', id: plan.id, result });
      }),
    ),
  );
  const totals = await writeTotals(dir, manifest.runs, prices);
  return { dir, manifest, ran, skipped: [...finished], failed, totals };
}

async function recordManifest(dir: string, matrix: SweepMatrix, all: SweepRunPlan[], mine: SweepRunPlan[], shard: Shard, prices: PriceTable) {
  const path = join(dir, MANIFEST_FILE);
  const sweepHash = sweepHashOf(all);
  const existing = await readManifest(dir);
  const definition = definitionOf(matrix);
  if (existing && existing.sweepHash !== sweepHash) {
    const differences = existing.definition ? configDifferences(existing.definition, definition) : [];
    throw new UserFacingError(
      `${dir} holds another sweep (hash ${existing.sweepHash}, this one ${sweepHash}${differences.length > 0 ? `: ${differences.join('; ')}` : ''}); nothing was run or changed. ` +
        `To start a fresh sweep, give another --out folder, or remove that folder first`,
      { code: 'run-config-changed' },
    );
  }
  const shards = existing?.shards ?? [];
  if (!shards.some((known) => known.index === shard.index && known.count === shard.count)) shards.push(shard);
  const byId = new Map((existing?.runs ?? []).map((plan) => [plan.id, plan]));
  for (const plan of mine) byId.set(plan.id, plan);
  const manifest: SweepManifest = {
    kind: 'parley.sweep',
    version: SWEEP_MANIFEST_VERSION,
    ...(matrix.name && { name: matrix.name }),
    protocol: matrix.protocol,
    sweepHash,
    parameters: Object.keys(all[0]?.params ?? {}),
    totalRuns: all.length,
    shards,
    runs: [...byId.values()].sort((a, b) => a.index - b.index),
    prices,
    definition,
  };
  await writeJsonFileAtomic(path, manifest);
  return manifest;
}

/** The part of a sweep file its runs follow from (its name, prices and pacing are not). */
function definitionOf(matrix: SweepMatrix): Record<string, unknown> {
  const { protocol, base, matrix: crossed, runs, repetitions } = matrix;
  return { protocol, base, ...(crossed && { matrix: crossed }), ...(runs && { runs }), repetitions };
}

export async function readManifest(dir: string): Promise<SweepManifest | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    return undefined;
  }
  const parsed = SweepManifest.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${join(dir, MANIFEST_FILE)} is not a sweep manifest: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}

/** Sweep totals over the runs that have a result, written to totals.json. */
export async function writeTotals(dir: string, plans: readonly SweepRunPlan[], prices: PriceTable): Promise<SweepReport['totals']> {
  const results: SweepRunResult[] = [];
  for (const plan of plans) {
    const result = await readRunResult(dir, plan.id);
    if (result) results.push(result);
  }
  const totals = { runs: results.length, ...addSpends(results, prices) };
  await writeJsonFileAtomic(join(dir, TOTALS_FILE), totals);
  return totals;
}
