import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { analyzeDebate } from '../debate/analyze.js';
import { dialogicProtocol } from '../dialogic/index.js';
import type { DialogicMeasures } from '../dialogic/analyze.js';
import type { SweepProtocol, SweepRunPlan } from '../../schemas/sweep.js';
import { readRunResult, runFiles } from './run-one.js';
import { readManifest } from './sweep.js';
import { writeJsonFileAtomic } from '../../state/atomic-write.js';

/** One finished run's scalar measures. */
export interface RunRow {
  id: string;
  params: Record<string, string>;
  repetition: number;
  measures: Record<string, number | null>;
}

/** One group of runs (a combination of the grouping parameters): how many, and the mean of each measure. */
export interface SummaryRow {
  group: Record<string, string>;
  runs: number;
  means: Record<string, number | null>;
}

export interface SweepSummary {
  protocol: SweepProtocol;
  by: string[];
  measures: string[];
  rows: SummaryRow[];
  runs: RunRow[];
  /** Runs of the folder without a finished result (not in the table). */
  unfinished: string[];
  csv: string;
  markdown: string;
}

export const DIALOGIC_MEASURES = ['survival_rate', 'proposed', 'submitted', 'dropped', 'immediate_keep_rate', 'yield_rate', 'mean_exchanges', 'edit_distance_normalised'];
export const DEBATE_MEASURES = ['rounds_run', 'js_first', 'js_final', 'js_collapse_ratio', 'final_agreement', 'final_correct', 'conformity', 'obstinacy', 'agents_changed'];
const SPEND_MEASURES = ['tokens', 'cost_usd'];

async function measuresOf(protocol: SweepProtocol, sweepDir: string, plan: SweepRunPlan): Promise<Record<string, number | null>> {
  const files = runFiles(sweepDir, plan.id);
  const output: unknown = JSON.parse(await readFile(files.output, 'utf8'));
  if (protocol === 'dialogic') {
    const m = (await dialogicProtocol.analyze(output, { dir: files.dir })).measures as unknown as DialogicMeasures;
    return {
      survival_rate: m.survival_rate,
      proposed: m.proposed,
      submitted: m.submitted,
      dropped: m.dropped,
      immediate_keep_rate: m.immediate_keep.rate,
      yield_rate: m.proposer_replies.yield_rate,
      mean_exchanges: m.exchanges.mean_per_term,
      edit_distance_normalised: m.edit_distance?.mean_normalised ?? null,
    };
  }
  const s = analyzeDebate(output).measures.summary;
  return {
    rounds_run: s.roundsRun,
    js_first: s.jsFirst,
    js_final: s.jsFinal,
    js_collapse_ratio: s.jsCollapseRatioOverall,
    final_agreement: s.finalAgreement,
    final_correct: s.finalCorrect === null ? null : Number(s.finalCorrect),
    conformity: s.conformity,
    obstinacy: s.obstinacy,
    agents_changed: s.howManyAgentsChanged,
  };
}

/**
 * One table across the finished runs of a sweep folder: runs grouped by the `by` parameters
 * (default: all of them, so repetitions are pooled), each measure's mean over the runs that have it.
 */
export async function summarizeSweep(dir: string, options: { by?: string[] } = {}): Promise<SweepSummary> {
  const sweepDir = resolve(dir);
  const manifest = await readManifest(sweepDir);
  if (!manifest) throw new Error(`${sweepDir} is not a sweep folder (no sweep.json): run parley sweep first`);
  const by = options.by ?? manifest.parameters;
  for (const name of by) if (!manifest.parameters.includes(name)) throw new Error(`unknown parameter ${name}: the sweep has ${manifest.parameters.join(', ') || 'none'}`);
  const measures = [...(manifest.protocol === 'dialogic' ? DIALOGIC_MEASURES : DEBATE_MEASURES), ...SPEND_MEASURES];
  const runs: RunRow[] = [];
  const unfinished: string[] = [];
  for (const plan of manifest.runs) {
    const result = await readRunResult(sweepDir, plan.id);
    if (result?.status !== 'ok') {
      unfinished.push(plan.id);
      continue;
    }
    const own = await measuresOf(manifest.protocol, sweepDir, plan);
    runs.push({
      id: plan.id,
      params: plan.params,
      repetition: plan.repetition,
      measures: { ...own, tokens: result.usage.inputTokens + result.usage.outputTokens, cost_usd: result.costUsd },
    });
  }
  const groups = new Map<string, RunRow[]>();
  for (const run of runs) {
    const key = JSON.stringify(by.map((name) => run.params[name] ?? ''));
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  const rows: SummaryRow[] = [...groups.values()].map((members) => ({
    group: Object.fromEntries(by.map((name) => [name, members[0]!.params[name] ?? ''])),
    runs: members.length,
    means: Object.fromEntries(measures.map((measure) => [measure, mean(members.map((run) => run.measures[measure] ?? null))])),
  }));
  const summary = { protocol: manifest.protocol, by, measures, rows, runs, unfinished };
  return { ...summary, csv: toCsv(summary), markdown: toMarkdown(summary) };
}

/** Writes summary.csv, summary.md and runs.csv (one line per run) into the sweep folder. */
export async function writeSummaryFiles(dir: string, summary: SweepSummary): Promise<{ csv: string; markdown: string; runs: string }> {
  const paths = { csv: join(dir, 'summary.csv'), markdown: join(dir, 'summary.md'), runs: join(dir, 'runs.csv') };
  await writeFile(paths.csv, summary.csv, 'utf8');
  await writeFile(paths.markdown, summary.markdown, 'utf8');
  await writeFile(paths.runs, runsCsv(summary), 'utf8');
  await writeJsonFileAtomic(join(dir, 'summary.json'), { by: summary.by, measures: summary.measures, rows: summary.rows, unfinished: summary.unfinished });
  return paths;
}

function mean(values: (number | null)[]): number | null {
  const present = values.filter((value): value is number => value !== null && Number.isFinite(value));
  return present.length === 0 ? null : present.reduce((sum, value) => sum + value, 0) / present.length;
}

const cell = (value: number | null): string => (value === null ? '' : String(Number(value.toPrecision(6))));
const csvText = (text: string) => (/[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

type Table = Pick<SweepSummary, 'by' | 'measures' | 'rows' | 'runs'>;

function toCsv(summary: Table): string {
  const lines = [[...summary.by, 'runs', ...summary.measures].map(csvText).join(',')];
  for (const row of summary.rows) {
    lines.push([...summary.by.map((name) => csvText(row.group[name] ?? '')), String(row.runs), ...summary.measures.map((m) => cell(row.means[m] ?? null))].join(','));
  }
  return lines.join('\n') + '\n';
}

function toMarkdown(summary: Table): string {
  const header = [...summary.by, 'runs', ...summary.measures];
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (i < summary.by.length ? '---' : '---:')).join(' | ')} |`];
  for (const row of summary.rows) {
    const values = [...summary.by.map((name) => row.group[name] ?? ''), String(row.runs), ...summary.measures.map((m) => cell(row.means[m] ?? null) || '-')];
    lines.push(`| ${values.map((value) => value.replace(/\|/g, '\\|')).join(' | ')} |`);
  }
  return lines.join('\n') + '\n';
}

function runsCsv(summary: SweepSummary): string {
  const params = Object.keys(summary.runs[0]?.params ?? {});
  const lines = [['id', ...params, 'repetition', ...summary.measures].map(csvText).join(',')];
  for (const run of summary.runs) {
    lines.push([csvText(run.id), ...params.map((name) => csvText(run.params[name] ?? '')), String(run.repetition), ...summary.measures.map((m) => cell(run.measures[m] ?? null))].join(','));
  }
  return lines.join('\n') + '\n';
}
