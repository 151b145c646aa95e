import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { MeasureStats, SweepSummaryFile, type SweepManifest } from '../../schemas/sweep.js';
import { readJsonFile } from '../../state/json-text.js';
import { isMissingFile, statPath } from '../../state/read-file.js';
import { readManifest } from '../sweep/sweep.js';
import { summarizeSweep } from '../sweep/summarize.js';

/** One cell of a sweep (a combination of its parameters), as the comparison shows it. */
export interface SweepCell {
  /** The cell's parameters, e.g. `rounds=3, anonymise=true`. */
  label: string;
  group: Record<string, string>;
  runs: number;
  means: Record<string, number | null>;
  /** 95% intervals of the mean, where summary.json gives them. */
  ci95: Record<string, [number, number] | null>;
}

export interface SweepTable {
  dir: string;
  name?: string;
  protocol?: string;
  parameters: string[];
  measures: string[];
  cells: SweepCell[];
  unfinished: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** summary.json has by, measures and rows; sweep.json is the manifest (`kind: parley.sweep`). */
export function isSweepFile(data: unknown): boolean {
  if (!isObject(data)) return false;
  return data.kind === 'parley.sweep' || (Array.isArray(data.by) && Array.isArray(data.measures) && Array.isArray(data.rows));
}

/** The fields that have been in summary.json from the start; everything else is read if it parses, else ignored. */
const StableSummary = z.looseObject({
  by: z.array(z.string()),
  measures: z.array(z.string()),
  rows: z.array(z.looseObject({ group: z.record(z.string(), z.string()), runs: z.number(), means: z.record(z.string(), z.number().nullable()) })),
  unfinished: z.array(z.string()).default([]),
});

export const paramLabel = (group: Record<string, string>): string => Object.entries(group).map(([name, value]) => `${name}=${value}`).join(', ') || 'all runs';

export function sweepTable(input: unknown, dir: string, manifest?: SweepManifest): SweepTable {
  const full = SweepSummaryFile.safeParse(input);
  const stable = StableSummary.safeParse(input);
  if (!stable.success) throw new Error(`not a sweep summary: ${stable.error.issues[0]?.path.join('.') ?? ''} ${stable.error.issues[0]?.message ?? ''}`.trim());
  const data = stable.data;
  const cells = data.rows.map((row, index): SweepCell => {
    const stats = full.success ? full.data.rows[index]?.stats : undefined;
    const ci95 = Object.fromEntries(
      data.measures.map((measure) => {
        const own = stats?.[measure] ?? MeasureStats.safeParse((row.stats as Record<string, unknown> | undefined)?.[measure]).data;
        return [measure, own?.ci95 ?? null];
      }),
    );
    return { label: paramLabel(row.group), group: row.group, runs: row.runs, means: data.measures.reduce<Record<string, number | null>>((out, m) => ({ ...out, [m]: row.means[m] ?? null }), {}), ci95 };
  });
  const protocol = typeof (input as { protocol?: unknown }).protocol === 'string' ? (input as { protocol: string }).protocol : manifest?.protocol;
  return { dir, ...(manifest?.name && { name: manifest.name }), ...(protocol && { protocol }), parameters: data.by, measures: data.measures, cells, unfinished: data.unfinished };
}

async function readIfPresent(path: string): Promise<unknown> {
  try {
    return await readJsonFile(path, basename(path));
  } catch (error) {
    if (isMissingFile(error)) return undefined;
    throw error;
  }
}

/**
 * A sweep from its folder, its summary.json or its manifest (sweep.json): the stored summary when
 * there is one, else one computed from the finished runs (nothing is written).
 */
export async function loadSweepTable(path: string): Promise<SweepTable> {
  const dir = (await statPath(path)).isDirectory() ? resolve(path) : dirname(resolve(path));
  const manifest = await readManifest(dir).catch(() => undefined);
  const given = dir === resolve(path) ? undefined : await readJsonFile(path, basename(path));
  const summary = given !== undefined && !(isObject(given) && given.kind === 'parley.sweep') ? given : await readIfPresent(join(dir, 'summary.json'));
  if (summary !== undefined) return sweepTable(summary, dir, manifest);
  if (!manifest) throw new Error(`${dir} is neither a sweep folder (no sweep.json) nor holds a summary.json`);
  const computed = await summarizeSweep(dir);
  return sweepTable({ by: computed.by, measures: computed.measures, rows: computed.rows, unfinished: computed.unfinished, protocol: computed.protocol }, dir, manifest);
}

/** A run file of a sweep folder is named by its parameters (and repetition), not by its file name. */
export async function sweepRunLabel(path: string): Promise<string | undefined> {
  const manifest = await readManifest(dirname(resolve(path))).catch(() => undefined);
  const plan = manifest?.runs.find((run) => `${run.id}.json` === basename(path));
  if (!manifest || !plan) return undefined;
  const repeated = manifest.runs.some((run) => run.repetition > 1);
  return `${paramLabel(plan.params)}${repeated ? ` #${plan.repetition}` : ''}`;
}
