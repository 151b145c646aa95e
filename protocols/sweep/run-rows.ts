import type { MeasureStats } from './statistics.js';

/** One finished run's scalar measures. */
export interface RunRow {
  id: string;
  params: Record<string, string>;
  repetition: number;
  measures: Record<string, number | null>;
}

/** One group of runs (a combination of the grouping parameters): how many, each measure's mean, and its spread. */
export interface SummaryRow {
  group: Record<string, string>;
  runs: number;
  means: Record<string, number | null>;
  stats: Record<string, MeasureStats>;
}
