import { access, cp, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { SweepManifest, SweepRunPlan } from '../../schemas/sweep.js';
import { readRunResult, runFiles } from './run-one.js';
import { MANIFEST_FILE, readManifest, writeTotals } from './sweep.js';
import { writeJsonFileAtomic } from '../../state/atomic-write.js';

export interface MergeReport {
  dir: string;
  manifest: SweepManifest;
  /** Runs finished in the merged folder, out of the whole sweep's. */
  finished: number;
  totalRuns: number;
  /** Shards of the sweep no input held. */
  missingShards: number[];
  /** Runs of the inputs that have no finished result yet. */
  unfinished: string[];
}

const exists = (path: string) => access(path).then(() => true, () => false);

/**
 * Combines the folders of several shards of one sweep (copied from other machines) into `outDir`,
 * which may be one of them. A run held twice keeps the copy that finished.
 */
export async function mergeSweeps(dirs: readonly string[], outDir: string): Promise<MergeReport> {
  if (dirs.length === 0) throw new Error('name the shard folders to merge');
  const target = resolve(outDir);
  const sources: { dir: string; manifest: SweepManifest }[] = [];
  for (const dir of dirs.map((path) => resolve(path))) {
    const manifest = await readManifest(dir);
    if (!manifest) throw new Error(`${dir} has no ${MANIFEST_FILE}: it is not a sweep folder`);
    sources.push({ dir, manifest });
  }
  const first = sources[0]!.manifest;
  for (const { dir, manifest } of sources) {
    if (manifest.sweepHash !== first.sweepHash) throw new Error(`${dir} holds another sweep (hash ${manifest.sweepHash}, not ${first.sweepHash}): merge only shards of one sweep file`);
  }
  const existing = await readManifest(target);
  if (existing && existing.sweepHash !== first.sweepHash) throw new Error(`${target} holds another sweep: merge into a new folder`);
  await mkdir(target, { recursive: true });

  const runs = new Map<string, SweepRunPlan>((existing?.runs ?? []).map((plan) => [plan.id, plan]));
  const shards = [...(existing?.shards ?? [])];
  for (const { dir, manifest } of sources) {
    for (const shard of manifest.shards) if (!shards.some((known) => known.index === shard.index && known.count === shard.count)) shards.push(shard);
    for (const plan of manifest.runs) {
      runs.set(plan.id, plan);
      if (dir === target) continue;
      const theirs = await readRunResult(dir, plan.id);
      const ours = await readRunResult(target, plan.id);
      if (ours?.status === 'ok' || (ours && theirs?.status !== 'ok')) continue;
      const from = runFiles(dir, plan.id);
      const to = runFiles(target, plan.id);
      if (await exists(from.dir)) await cp(from.dir, to.dir, { recursive: true, force: true });
      if (await exists(from.output)) await cp(from.output, to.output, { force: true });
    }
  }
  const manifest: SweepManifest = {
    ...first,
    shards: shards.sort((a, b) => a.count - b.count || a.index - b.index),
    runs: [...runs.values()].sort((a, b) => a.index - b.index),
  };
  await writeJsonFileAtomic(join(target, MANIFEST_FILE), manifest);
  await writeTotals(target, manifest.runs, manifest.prices);
  const unfinished: string[] = [];
  for (const plan of manifest.runs) if ((await readRunResult(target, plan.id))?.status !== 'ok') unfinished.push(plan.id);
  return {
    dir: target,
    manifest,
    finished: manifest.runs.length - unfinished.length,
    totalRuns: first.totalRuns,
    missingShards: missingShards(manifest),
    unfinished,
  };
}

/** With shards all of one count n, which of 1..n no folder held. */
function missingShards(manifest: SweepManifest): number[] {
  const counts = new Set(manifest.shards.map((shard) => shard.count));
  if (counts.has(1) || counts.size !== 1) return [];
  const count = [...counts][0]!;
  const held = new Set(manifest.shards.map((shard) => shard.index));
  return Array.from({ length: count }, (_, i) => i + 1).filter((index) => !held.has(index));
}
