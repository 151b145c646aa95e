export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export const median = (values: number[]): number => percentile(values, 50);

/** A figure with what it is held to, printed after it: "9895  (target <= 1.15 x consultee reply bytes + 6000)". */
export interface Figure {
  value: number;
  note: string;
}
