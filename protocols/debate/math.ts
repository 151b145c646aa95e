/** Probability and set measures used by the debate analysis; every logarithm is base 2 (bits). */

export type Distribution = Record<string, number>;

/** What is wrong with a set of answer weights, or the weights scaled to sum to 1. */
export type WeightCheck = { ok: true; distribution: Distribution } | { ok: false; problem: string };

/**
 * The one rule for an agent's weights, live and on re-analysis: every weight finite and non-negative,
 * the sum positive; percentages, raw weights and probabilities alike are scaled to sum to 1.
 */
export function checkWeights(weights: Distribution): WeightCheck {
  const entries = Object.entries(weights);
  for (const [key, value] of entries) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      return { ok: false, problem: `has ${value < 0 ? 'a negative' : 'a non-numeric'} weight ${value} for ${JSON.stringify(key)}: weights must be non-negative with a positive sum` };
    }
  }
  const total = entries.reduce((sum, [, value]) => sum + value, 0);
  if (total <= 0) return { ok: false, problem: 'is empty or all zero: give at least one positive weight' };
  return { ok: true, distribution: Object.fromEntries(entries.filter(([, value]) => value > 0).map(([key, value]) => [key, value / total])) };
}

/** Scales non-negative weights to sum to 1; an all-zero input gives an empty distribution. */
export function normalize(weights: Distribution): Distribution {
  const total = Object.values(weights).reduce((sum, value) => sum + Math.max(0, value), 0);
  if (total <= 0) return {};
  const out: Distribution = {};
  for (const [key, value] of Object.entries(weights)) if (value > 0) out[key] = value / total;
  return out;
}

/** Shannon entropy H(P) in bits. */
export function entropy(p: Distribution): number {
  let h = 0;
  for (const value of Object.values(p)) if (value > 0) h -= value * Math.log2(value);
  return h;
}

/** KL(P || Q) in bits; infinite when P puts mass where Q has none. */
export function kl(p: Distribution, q: Distribution): number {
  let d = 0;
  for (const [key, value] of Object.entries(p)) {
    if (value <= 0) continue;
    const other = q[key] ?? 0;
    if (other <= 0) return Infinity;
    d += value * Math.log2(value / other);
  }
  return d;
}

export function mixture(distributions: Distribution[]): Distribution {
  const m: Distribution = {};
  for (const p of distributions) {
    for (const [key, value] of Object.entries(p)) m[key] = (m[key] ?? 0) + value / distributions.length;
  }
  return m;
}

/** Generalized Jensen-Shannon divergence: mean_i KL(P_i || M), M the mean of the P_i. */
export function generalizedJs(distributions: Distribution[]): number {
  if (distributions.length < 2) return 0;
  const m = mixture(distributions);
  const total = distributions.reduce((sum, p) => sum + kl(p, m), 0);
  return total / distributions.length;
}

/** |A n B| / |A u B|; two empty sets share nothing, so their Jaccard is 0 here. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let intersection = 0;
  for (const item of a) if (b.has(item)) intersection += 1;
  const union = a.size + b.size - intersection;
  return union === 0 ? 0 : intersection / union;
}

/** Mean Jaccard over all unordered pairs; 0 with fewer than two sets. */
export function meanPairwiseJaccard(sets: ReadonlySet<string>[]): number {
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < sets.length; i += 1) {
    for (let j = i + 1; j < sets.length; j += 1) {
      sum += jaccard(sets[i]!, sets[j]!);
      pairs += 1;
    }
  }
  return pairs === 0 ? 0 : sum / pairs;
}

/** Counts of each value, as an empirical distribution. */
export function histogram(values: string[]): Distribution {
  const counts: Distribution = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return normalize(counts);
}

/** The keys holding the largest weight (within 1e-9), sorted; empty for an empty distribution. */
export function topHoldings(p: Distribution): string[] {
  const top = Math.max(-Infinity, ...Object.values(p));
  return Object.keys(p)
    .filter((key) => p[key]! >= top - 1e-9)
    .sort();
}

/** ReConcile's recalibration of a stated confidence c in [0,1]. */
export function recalibrateConfidence(c: number): number {
  if (c <= 0.6) return 0.1;
  if (c <= 0.8) return 0.3;
  if (c <= 0.9) return 0.5;
  if (c < 1) return 0.8;
  return 1;
}

export const round6 = (value: number): number => (Number.isFinite(value) ? Math.round(value * 1e6) / 1e6 : value);
