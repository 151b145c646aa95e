/**
 * Spread and paired comparisons for sweep summaries: sample statistics, a percentile bootstrap
 * interval of the mean and a sign-flip permutation test, all deterministic (seeded by a key).
 */

/** Resamples per bootstrap interval, and random sign patterns per Monte Carlo p-value. */
export const BOOTSTRAP_RESAMPLES = 10_000;
export const SIGN_FLIP_SAMPLES = 10_000;
/** Up to this many pairs every sign pattern is enumerated (2^16 = 65,536); above it they are sampled. */
export const EXACT_SIGN_FLIP_MAX_PAIRS = 16;

export interface MeasureStats {
  /** Runs with a value (missing values are excluded, never read as 0). */
  n: number;
  /** Runs of the cell without a value for this measure. */
  missing: number;
  mean: number | null;
  /** Sample standard deviation (n - 1); null below 2 values. */
  sd: number | null;
  /** 95% percentile bootstrap interval of the mean; [x, x] for one value, null for none. */
  ci95: [number, number] | null;
}

export interface PairedStats {
  /** Pairs where both runs have a value. */
  pairs: number;
  /** Pairs where either run lacks one. */
  missing: number;
  /** Mean of B - A. */
  meanDifference: number | null;
  sd: number | null;
  ci95: [number, number] | null;
  /** Two-sided sign-flip p-value for mean difference 0; null without pairs. */
  p: number | null;
  pMethod: 'exact' | 'monte-carlo' | null;
}

/** FNV-1a, 32 bits, over the UTF-8 bytes of `key`: the seed of every random stream here. */
export function seedOf(key: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

/** mulberry32: a small, well-known 32-bit generator; uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const present = (values: readonly (number | null | undefined)[]): number[] =>
  values.filter((value): value is number => typeof value === 'number' && Number.isFinite(value));

export function meanOf(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

export function sampleSd(values: readonly number[]): number | null {
  const mean = meanOf(values);
  if (mean === null || values.length < 2) return null;
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1));
}

/** The p-quantile of sorted values, interpolating linearly between order statistics (R type 7, numpy's default). */
export function quantile(sorted: ArrayLike<number>, p: number): number {
  const h = (sorted.length - 1) * p;
  const low = Math.floor(h);
  const high = Math.min(low + 1, sorted.length - 1);
  return sorted[low]! + (h - low) * (sorted[high]! - sorted[low]!);
}

/** 95% percentile bootstrap interval of the mean: BOOTSTRAP_RESAMPLES resamples with replacement, seeded by `key`. */
export function bootstrapMeanCi(values: readonly number[], key: string, resamples = BOOTSTRAP_RESAMPLES): [number, number] | null {
  const n = values.length;
  if (n === 0) return null;
  if (values.every((value) => value === values[0])) return [values[0]!, values[0]!];
  const random = mulberry32(seedOf(key));
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b += 1) {
    let sum = 0;
    for (let i = 0; i < n; i += 1) sum += values[Math.floor(random() * n)]!;
    means[b] = sum / n;
  }
  means.sort();
  return [quantile(means, 0.025), quantile(means, 0.975)];
}

/** n, missing, mean, sd and the bootstrap interval of one measure over the runs of a cell. */
export function describe(values: readonly (number | null | undefined)[], key: string): MeasureStats {
  const kept = present(values);
  return { n: kept.length, missing: values.length - kept.length, mean: meanOf(kept), sd: sampleSd(kept), ci95: bootstrapMeanCi(kept, key) };
}

/**
 * Two-sided sign-flip test of mean difference 0: the share of sign patterns whose |sum| reaches the
 * observed |sum|. Exact up to EXACT_SIGN_FLIP_MAX_PAIRS; above, SIGN_FLIP_SAMPLES random patterns
 * seeded by `key`, p = (1 + hits) / (1 + samples), which never reports 0.
 */
export function signFlipP(differences: readonly number[], key: string): { p: number; method: 'exact' | 'monte-carlo' } | null {
  const n = differences.length;
  if (n === 0) return null;
  const observed = Math.abs(differences.reduce((sum, d) => sum + d, 0));
  // Sums equal in exact arithmetic may differ in the last bits.
  const threshold = observed - 1e-9 * differences.reduce((sum, d) => sum + Math.abs(d), 0);
  if (n <= EXACT_SIGN_FLIP_MAX_PAIRS) {
    let hits = 0;
    for (let mask = 0; mask < 2 ** n; mask += 1) {
      let sum = 0;
      for (let i = 0; i < n; i += 1) sum += mask & (1 << i) ? -differences[i]! : differences[i]!;
      if (Math.abs(sum) >= threshold) hits += 1;
    }
    return { p: hits / 2 ** n, method: 'exact' };
  }
  const random = mulberry32(seedOf(key));
  let hits = 0;
  for (let s = 0; s < SIGN_FLIP_SAMPLES; s += 1) {
    let sum = 0;
    for (const d of differences) sum += random() < 0.5 ? -d : d;
    if (Math.abs(sum) >= threshold) hits += 1;
  }
  return { p: (1 + hits) / (1 + SIGN_FLIP_SAMPLES), method: 'monte-carlo' };
}

/** Paired statistics over differences (B - A); a pair missing a value (null) is excluded and counted. */
export function describeDifferences(values: readonly (number | null | undefined)[], key: string): PairedStats {
  const differences = present(values);
  const test = signFlipP(differences, `${key}#p`);
  return {
    pairs: differences.length,
    missing: values.length - differences.length,
    meanDifference: meanOf(differences),
    sd: sampleSd(differences),
    ci95: bootstrapMeanCi(differences, key),
    p: test?.p ?? null,
    pMethod: test?.method ?? null,
  };
}

/** B - A for each pair, null when either value is missing. */
export const differencesOf = (pairs: readonly { a: number | null | undefined; b: number | null | undefined }[]): (number | null)[] =>
  pairs.map(({ a, b }) => (typeof a === 'number' && Number.isFinite(a) && typeof b === 'number' && Number.isFinite(b) ? b - a : null));
