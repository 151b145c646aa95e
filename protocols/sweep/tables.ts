import { toCsv, type CsvValue } from '../csv.js';
import { BOOTSTRAP_RESAMPLES, type PairedStats } from './statistics.js';
import type { IdentityBiasSummary, SweepComparison } from './pairs.js';
import type { RunRow, SummaryRow } from './run-rows.js';

/** What the tables are made from (a SweepSummary holds it all). */
interface Tables {
  by: string[];
  measures: string[];
  rows: SummaryRow[];
  runs: RunRow[];
  comparisons: SweepComparison[];
  identityBias: IdentityBiasSummary | null;
}

const num = (value: number | null | undefined): string => (value === null || value === undefined ? '' : String(Number(value.toPrecision(6))));
const SPREAD_COLUMNS = ['n', 'sd', 'ci95_low', 'ci95_high'];

/** summary.csv: the grouping labels, runs, each measure's mean (as before), then each measure's n, sd and 95% interval. */
export function summaryCsv(summary: Omit<Tables, 'runs'>): string {
  const header = [...summary.by, 'runs', ...summary.measures, ...summary.measures.flatMap((m) => SPREAD_COLUMNS.map((column) => `${m}_${column}`))];
  const rows = summary.rows.map((row) => [
    ...summary.by.map((name) => row.group[name] ?? ''),
    row.runs,
    ...summary.measures.map((m) => num(row.means[m])),
    ...summary.measures.flatMap((m) => {
      const stats = row.stats[m];
      return [stats?.n, num(stats?.sd), num(stats?.ci95?.[0]), num(stats?.ci95?.[1])];
    }),
  ]);
  return toCsv(header, rows);
}

export function runsCsv(summary: Pick<Tables, 'measures' | 'runs'>): string {
  const params = Object.keys(summary.runs[0]?.params ?? {});
  const rows = summary.runs.map((run) => [run.id, ...params.map((name) => run.params[name] ?? ''), run.repetition, ...summary.measures.map((m) => num(run.measures[m]))]);
  return toCsv(['id', ...params, 'repetition', ...summary.measures], rows);
}

const cellText = (group: Record<string, string>) => Object.entries(group).map(([name, label]) => `${name}=${label}`).join(';') || 'all';

const pairedColumns = (stats: PairedStats): CsvValue[] => [stats.pairs, stats.missing, num(stats.meanDifference), num(stats.sd), num(stats.ci95?.[0]), num(stats.ci95?.[1]), num(stats.p), stats.pMethod];

/** comparisons.csv: one line per comparison, cell (or `all`) and measure; identity bias as measure `identity_bias` (visible - anonymised). */
export function comparisonsCsv(summary: Pick<Tables, 'comparisons' | 'identityBias'>): string {
  const rows: CsvValue[][] = [];
  for (const comparison of summary.comparisons) {
    const [a, b] = comparison.levels;
    const cells = [{ group: {}, measures: comparison.overall }, ...comparison.cells];
    for (const cell of cells) for (const [measure, stats] of Object.entries(cell.measures)) rows.push([comparison.parameter, a, b, cellText(cell.group), measure, ...pairedColumns(stats)]);
  }
  const bias = summary.identityBias;
  if (bias) {
    for (const cell of [{ group: {}, stats: bias.overall }, ...bias.cells]) rows.push([bias.parameter, bias.anonymised, bias.visible, cellText(cell.group), 'identity_bias', ...pairedColumns(cell.stats)]);
  }
  return toCsv(['parameter', 'level_a', 'level_b', 'cell', 'measure', 'pairs', 'missing', 'mean_difference', 'sd', 'ci95_low', 'ci95_high', 'p', 'p_method'], rows);
}

const mdRow = (values: string[]) => `| ${values.map((value) => value.replace(/\|/g, '\\|')).join(' | ')} |`;
const mdHeader = (header: string[], textColumns: number) => [mdRow(header), `| ${header.map((_, i) => (i < textColumns ? '---' : '---:')).join(' | ')} |`];
const interval = (ci: [number, number] | null) => (ci ? `[${num(ci[0])}, ${num(ci[1])}]` : '-');
const pairedCells = (stats: PairedStats) => [String(stats.pairs), num(stats.meanDifference) || '-', num(stats.sd) || '-', interval(stats.ci95), stats.p === null ? '-' : `${num(stats.p)}${stats.pMethod === 'monte-carlo' ? ' (MC)' : ''}`];
const PAIRED_HEADER = ['pairs', 'mean difference', 'sd', '95% CI', 'p'];

/** summary.md: the table of means (as before), then spread per cell, paired comparisons and identity bias. */
export function summaryMarkdown(summary: Omit<Tables, 'runs'>): string {
  const header = [...summary.by, 'runs', ...summary.measures];
  const lines = mdHeader(header, summary.by.length);
  for (const row of summary.rows) lines.push(mdRow([...summary.by.map((name) => row.group[name] ?? ''), String(row.runs), ...summary.measures.map((m) => num(row.means[m]) || '-')]));

  lines.push('', '## Spread', '', `Runs without a value are left out (missing); 95% CI: percentile bootstrap of the mean, ${BOOTSTRAP_RESAMPLES.toLocaleString('en-US')} resamples.`, '');
  lines.push(...mdHeader([...summary.by, 'measure', 'n', 'missing', 'mean', 'sd', '95% CI'], summary.by.length + 1));
  for (const row of summary.rows) {
    for (const measure of summary.measures) {
      const stats = row.stats[measure]!;
      lines.push(mdRow([...summary.by.map((name) => row.group[name] ?? ''), measure, String(stats.n), String(stats.missing), num(stats.mean) || '-', num(stats.sd) || '-', interval(stats.ci95)]));
    }
  }
  for (const comparison of summary.comparisons) {
    const [a, b] = comparison.levels;
    lines.push('', `## ${comparison.parameter}: ${b} - ${a}`, '', `${comparison.pairs} pair(s) of runs alike but for ${comparison.parameter}; p: two-sided sign-flip test${comparison.unpaired.length ? `; unpaired: ${comparison.unpaired.length}` : ''}.`, '');
    lines.push(...mdHeader(['cell', 'measure', ...PAIRED_HEADER], 2));
    for (const cell of [{ group: {}, measures: comparison.overall }, ...comparison.cells]) {
      for (const [measure, stats] of Object.entries(cell.measures)) lines.push(mdRow([cellText(cell.group), measure, ...pairedCells(stats)]));
    }
  }
  const bias = summary.identityBias;
  if (bias) {
    lines.push('', `## Identity bias (${bias.parameter}: ${bias.visible} - ${bias.anonymised})`, '', '(conformity - obstinacy) with identities visible minus the same anonymised, per pair of runs.', '');
    lines.push(...mdHeader(['cell', ...PAIRED_HEADER], 1));
    for (const cell of [{ group: {}, stats: bias.overall }, ...bias.cells]) lines.push(mdRow([cellText(cell.group), ...pairedCells(cell.stats)]));
  }
  return lines.join('\n') + '\n';
}
