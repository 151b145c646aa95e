import { z } from 'zod';
import { configObject, Usage } from './common.js';

/**
 * An experiment sweep: one protocol, a base configuration, and parameters whose combinations
 * (a cartesian product, or an explicit list) are each run `repetitions` times. What a sweep
 * folder holds (its manifest and one result record per run) is versioned here as well.
 */
export const SWEEP_MANIFEST_VERSION = 1;

export const SweepProtocol = z.enum(['dialogic', 'debate']);
export type SweepProtocol = z.infer<typeof SweepProtocol>;

/** USD per million tokens. `cachedInput` defaults to `input` (no discount known). */
export const Price = configObject({
  input: z.number().nonnegative(),
  cachedInput: z.number().nonnegative().optional(),
  output: z.number().nonnegative(),
});
export type Price = z.infer<typeof Price>;

/** Keys: a full backend spec (`openai:gpt-4.1`), a model name (`gpt-4.1`) or a provider (`ollama`). */
export const PriceTable = z.record(z.string().min(1), Price);
export type PriceTable = z.infer<typeof PriceTable>;

/** Path segments that would walk into an object's prototype (and so into every object's). */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
const reachesPrototype = (path: string) => path.split('.').some((part) => FORBIDDEN_KEYS.has(part));
const ConfigPath = z.string().min(1).refine((path) => !reachesPrototype(path), 'a config path may not name __proto__, constructor or prototype');

/**
 * One value of a parameter. A plain value is set at the parameter's name, read as a dotted config
 * path (`stop.maxRounds`); `{ label, set }` sets several paths at once under one label. A `null`
 * in `set` removes the key (e.g. `pid: null` turns the controller off).
 */
export const LabelledValue = z.strictObject({
  label: z.string().min(1).optional(),
  set: z.record(ConfigPath, z.unknown()),
});
export type LabelledValue = z.infer<typeof LabelledValue>;

const ParamName = ConfigPath.regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, 'a parameter name or a dotted config path');

export const SweepMatrix = configObject({
  name: z.string().min(1).optional(),
  protocol: SweepProtocol,
  /** The configuration every run starts from (DialogicConfig or DebateConfig fields). */
  base: z.record(z.string(), z.unknown()).default({}),
  /** Parameters crossed with each other: name -> the values to try. */
  matrix: z.record(ParamName, z.array(z.unknown()).min(1)).optional(),
  /** Or an explicit list of combinations: each maps parameter names to one value. */
  runs: z.array(z.record(ParamName, z.unknown())).min(1).optional(),
  repetitions: z.number().int().min(1).max(1000).default(1),
  /** Model calls in flight per backend spec; keys as in the price table, plus `default`. */
  perBackend: z.record(z.string().min(1), z.number().int().min(1)).default({}),
  retry: configObject({
    /** How often a rate-limited call is retried after the backend's own retries ran out. */
    rateLimited: z.number().int().min(0).max(20).default(4),
    /** First pause; it doubles each time (with jitter). */
    baseMs: z.number().int().min(0).default(5000),
  }).prefault({}),
  /** Ask providers that support it for a sampling seed derived from the run id. */
  seedPerRun: z.boolean().default(true),
  prices: PriceTable.default({}),
}).superRefine((matrix, ctx) => {
  if (matrix.matrix && matrix.runs) ctx.addIssue({ code: 'custom', path: ['runs'], message: 'give either matrix (a product) or runs (a list), not both' });
});
export type SweepMatrix = z.infer<typeof SweepMatrix>;
export type SweepMatrixInput = z.input<typeof SweepMatrix>;

/** One run of the expanded sweep: which combination, which repetition, the config it runs. */
export const SweepRunPlan = z.object({
  id: z.string(),
  /** Position in the expanded sweep (shards are taken by this index). */
  index: z.number().int().nonnegative(),
  protocol: SweepProtocol,
  repetition: z.number().int().min(1),
  /** Parameter name -> the label of the value this run uses. */
  params: z.record(z.string(), z.string()),
  config: z.record(z.string(), z.unknown()),
});
export type SweepRunPlan = z.infer<typeof SweepRunPlan>;

export const SweepManifest = z.object({
  kind: z.literal('parley.sweep'),
  version: z.literal(SWEEP_MANIFEST_VERSION),
  name: z.string().optional(),
  protocol: SweepProtocol,
  /** A hash of the expanded sweep: shards merge only when theirs agree. */
  sweepHash: z.string(),
  parameters: z.array(z.string()),
  totalRuns: z.number().int().nonnegative(),
  /** The shards whose runs this folder holds (several after a merge). */
  shards: z.array(z.object({ index: z.number().int().min(1), count: z.number().int().min(1) })),
  runs: z.array(SweepRunPlan),
  prices: PriceTable,
  /** What of the sweep file decides its runs (protocol, base, matrix or runs, repetitions): names what differs when another sweep meets the folder. */
  definition: z.record(z.string(), z.unknown()).optional(),
});
export type SweepManifest = z.infer<typeof SweepManifest>;

export const BackendSpend = z.object({ calls: z.number().int().nonnegative(), usage: Usage, costUsd: z.number().nullable() });
export type BackendSpend = z.infer<typeof BackendSpend>;

/** Written beside a run's audit log when an attempt ends; `ok` marks the run finished for good. */
export const SweepRunResult = z.object({
  kind: z.literal('parley.sweep-run'),
  id: z.string(),
  status: z.enum(['ok', 'failed']),
  params: z.record(z.string(), z.string()),
  repetition: z.number().int().min(1),
  /** Attempts so far (a resumed run counts each attempt). */
  attempts: z.number().int().min(1),
  startedAt: z.string(),
  finishedAt: z.string(),
  error: z.string().optional(),
  /** Everything the audit log shows was spent, over all attempts; cost null when a backend has no price. */
  usage: Usage,
  costUsd: z.number().nullable(),
  byBackend: z.record(z.string(), BackendSpend),
});
export type SweepRunResult = z.infer<typeof SweepRunResult>;

/** One measure over a cell's runs: missing values are excluded and counted; ci95 is a percentile bootstrap of the mean. */
export const MeasureStats = z.object({
  n: z.number().int().nonnegative(),
  missing: z.number().int().nonnegative(),
  mean: z.number().nullable(),
  sd: z.number().nullable(),
  ci95: z.tuple([z.number(), z.number()]).nullable(),
});

/** Differences B - A over pairs of runs; p from a two-sided sign-flip test. */
export const PairedStats = z.object({
  pairs: z.number().int().nonnegative(),
  missing: z.number().int().nonnegative(),
  meanDifference: z.number().nullable(),
  sd: z.number().nullable(),
  ci95: z.tuple([z.number(), z.number()]).nullable(),
  p: z.number().nullable(),
  pMethod: z.enum(['exact', 'monte-carlo']).nullable(),
});

const Group = z.record(z.string(), z.string());

/**
 * summary.json of `parley sweep summarize`. by, measures, rows (group, runs, means) and unfinished
 * are the original fields; the rest were added later and are optional for older files.
 */
export const SweepSummaryFile = z.object({
  by: z.array(z.string()),
  measures: z.array(z.string()),
  rows: z.array(z.object({ group: Group, runs: z.number().int().nonnegative(), means: z.record(z.string(), z.number().nullable()), stats: z.record(z.string(), MeasureStats).optional() })),
  unfinished: z.array(z.string()),
  protocol: SweepProtocol.optional(),
  /** How intervals, seeds and p-values were computed, in words. */
  statistics: z.record(z.string(), z.string()).optional(),
  comparisons: z
    .array(
      z.object({
        parameter: z.string(),
        levels: z.tuple([z.string(), z.string()]),
        pairs: z.number().int().nonnegative(),
        unpaired: z.array(z.string()),
        overall: z.record(z.string(), PairedStats),
        cells: z.array(z.object({ group: Group, pairs: z.number().int().nonnegative(), measures: z.record(z.string(), PairedStats) })),
      }),
    )
    .optional(),
  identityBias: z
    .object({
      parameter: z.string(),
      anonymised: z.string(),
      visible: z.string(),
      pairs: z.array(z.object({ anonymised: z.string(), visible: z.string(), group: Group, repetition: z.number().int().min(1), value: z.number().nullable() })),
      unpaired: z.array(z.string()),
      overall: PairedStats,
      cells: z.array(z.object({ group: Group, stats: PairedStats })),
    })
    .nullable()
    .optional(),
});
export type SweepSummaryFile = z.infer<typeof SweepSummaryFile>;
