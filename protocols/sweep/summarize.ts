import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { analyzeDebate, type DebateAnalysis } from '../debate/analyze.js';
import { dialogicProtocol } from '../dialogic/index.js';
import type { DialogicMeasures } from '../dialogic/analyze.js';
import type { SweepProtocol, SweepRunPlan, SweepSummaryFile } from '../../schemas/sweep.js';
import { readRunResult, runFiles } from './run-one.js';
import { readManifest } from './sweep.js';
import { writeJsonFileAtomic } from '../../state/atomic-write.js';
import { compareLevels, identityBiasOf, type ComparisonSpec, type IdentityBiasSummary, type SweepComparison } from './pairs.js';
import { BOOTSTRAP_RESAMPLES, EXACT_SIGN_FLIP_MAX_PAIRS, SIGN_FLIP_SAMPLES, describe } from './statistics.js';
import type { RunRow, SummaryRow } from './run-rows.js';
import { visibleControls } from '../../schemas/visible-controls.js';
import { comparisonsCsv, runsCsv, summaryCsv, summaryMarkdown } from './tables.js';

export type { RunRow, SummaryRow } from './run-rows.js';

/** How the intervals and p-values were computed (written into summary.json). */
export const STATISTICS_METHOD = {
  ci: `95% percentile bootstrap of the mean, ${BOOTSTRAP_RESAMPLES} resamples (quantiles interpolated as R type 7)`,
  seed: 'mulberry32 seeded with FNV-1a-32 of the UTF-8 JSON key naming the cell and the measure, e.g. ["cell","p1","true","survival_rate"]',
  p: `two-sided sign-flip permutation test of mean difference 0: exact up to ${EXACT_SIGN_FLIP_MAX_PAIRS} pairs, else ${SIGN_FLIP_SAMPLES} seeded random sign patterns, p = (1 + hits) / (1 + ${SIGN_FLIP_SAMPLES})`,
  missing: 'runs without a value are excluded and counted (missing), never read as 0',
};

export interface SweepSummary {
  protocol: SweepProtocol;
  by: string[];
  measures: string[];
  rows: SummaryRow[];
  runs: RunRow[];
  /** Runs of the folder without a finished result (not in the table). */
  unfinished: string[];
  comparisons: SweepComparison[];
  /** Debate sweeps with a parameter that only toggles anonymisation; else null. */
  identityBias: IdentityBiasSummary | null;
  csv: string;
  markdown: string;
}

export const DIALOGIC_MEASURES = ['survival_rate', 'proposed', 'submitted', 'dropped', 'immediate_keep_rate', 'yield_rate', 'mean_exchanges', 'edit_distance_normalised'];
export const DEBATE_MEASURES = ['rounds_run', 'js_first', 'js_final', 'js_collapse_ratio', 'final_agreement', 'final_correct', 'conformity', 'obstinacy', 'agents_changed'];
const SPEND_MEASURES = ['tokens', 'cost_usd'];

async function measuresOf(protocol: SweepProtocol, sweepDir: string, plan: SweepRunPlan): Promise<{ measures: Record<string, number | null>; analysis?: DebateAnalysis }> {
  const files = runFiles(sweepDir, plan.id);
  const output: unknown = JSON.parse(await readFile(files.output, 'utf8'));
  if (protocol === 'dialogic') {
    const m = (await dialogicProtocol.analyze(output, { dir: files.dir })).measures as unknown as DialogicMeasures;
    const measures = {
      survival_rate: m.survival_rate,
      proposed: m.proposed,
      submitted: m.submitted,
      dropped: m.dropped,
      immediate_keep_rate: m.immediate_keep.rate,
      yield_rate: m.proposer_replies.yield_rate,
      mean_exchanges: m.exchanges.mean_per_term,
      edit_distance_normalised: m.edit_distance?.mean_normalised ?? null,
    };
    return { measures };
  }
  const analysis = analyzeDebate(output);
  const s = analysis.measures.summary;
  const measures = {
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
  return { measures, analysis };
}

/**
 * One table across the finished runs of a sweep folder: runs grouped by the `by` parameters
 * (default: all of them, so repetitions are pooled), each measure's n, mean, sd and bootstrap
 * interval; paired comparisons between two levels of a parameter; identity bias when one
 * parameter only toggles anonymisation (debate).
 */
export async function summarizeSweep(dir: string, options: { by?: string[]; compare?: ComparisonSpec[] } = {}): Promise<SweepSummary> {
  const sweepDir = resolve(dir);
  const manifest = await readManifest(sweepDir);
  if (!manifest) throw new Error(`${sweepDir} is not a sweep folder (no sweep.json): give the folder a sweep ran into (its --out)`);
  const by = options.by ?? manifest.parameters;
  for (const name of by) if (!manifest.parameters.includes(name)) throw new Error(`unknown parameter ${name}: the sweep has ${manifest.parameters.join(', ') || 'none'}`);
  for (const spec of options.compare ?? []) {
    if (!manifest.parameters.includes(spec.parameter)) throw new Error(`unknown parameter ${spec.parameter} in --compare: the sweep has ${manifest.parameters.join(', ') || 'none'}`);
  }
  const measures = [...(manifest.protocol === 'dialogic' ? DIALOGIC_MEASURES : DEBATE_MEASURES), ...SPEND_MEASURES];
  const runs: RunRow[] = [];
  const analyses = new Map<string, DebateAnalysis>();
  const unfinished: string[] = [];
  for (const plan of manifest.runs) {
    const result = await readRunResult(sweepDir, plan.id);
    if (result?.status !== 'ok') {
      unfinished.push(plan.id);
      continue;
    }
    const own = await measuresOf(manifest.protocol, sweepDir, plan);
    if (own.analysis) analyses.set(plan.id, own.analysis);
    runs.push({
      id: plan.id,
      params: plan.params,
      repetition: plan.repetition,
      measures: { ...own.measures, tokens: result.usage.inputTokens + result.usage.outputTokens, cost_usd: result.costUsd },
    });
  }
  const groups = new Map<string, RunRow[]>();
  for (const run of runs) {
    const key = JSON.stringify(by.map((name) => run.params[name] ?? ''));
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  const rows: SummaryRow[] = [...groups.values()].map((members) => {
    const group = Object.fromEntries(by.map((name) => [name, members[0]!.params[name] ?? '']));
    const stats = Object.fromEntries(
      measures.map((measure) => [measure, describe(members.map((run) => run.measures[measure] ?? null), JSON.stringify(['cell', ...by.map((name) => group[name]), measure]))]),
    );
    return { group, runs: members.length, means: Object.fromEntries(measures.map((measure) => [measure, stats[measure]!.mean])), stats };
  });
  const comparisons = (options.compare ?? []).map((spec) => compareLevels(spec, manifest.runs, runs, by, measures));
  const identityBias = manifest.protocol === 'debate' ? identityBiasOf(manifest.runs, manifest.parameters, runs, analyses, by) : null;
  const summary = { protocol: manifest.protocol, by, measures, rows, runs, unfinished, comparisons, identityBias };
  return { ...summary, csv: summaryCsv(summary), markdown: summaryMarkdown(summary) };
}

/** What summary.json holds: the original fields (by, measures, rows with group/runs/means, unfinished) and the added ones. */
export function summaryJson(summary: SweepSummary): SweepSummaryFile {
  const { protocol, by, measures, rows, unfinished, comparisons, identityBias } = summary;
  return { by, measures, rows, unfinished, protocol, statistics: STATISTICS_METHOD, comparisons, identityBias };
}

/** Writes summary.csv, summary.md, runs.csv (one line per run), summary.json and, with comparisons or identity bias, comparisons.csv. */
export async function writeSummaryFiles(dir: string, summary: SweepSummary): Promise<{ csv: string; markdown: string; runs: string; json: string; comparisons?: string }> {
  const paths = { csv: join(dir, 'summary.csv'), markdown: join(dir, 'summary.md'), runs: join(dir, 'runs.csv'), json: join(dir, 'summary.json') };
  await writeFile(paths.csv, summary.csv, 'utf8');
  await writeFile(paths.markdown, visibleControls(summary.markdown), 'utf8');
  await writeFile(paths.runs, runsCsv(summary), 'utf8');
  await writeJsonFileAtomic(paths.json, summaryJson(summary));
  const comparisons = join(dir, 'comparisons.csv');
  // A file left by an earlier `--compare` would read as this summary's.
  if (summary.comparisons.length === 0 && !summary.identityBias) {
    await rm(comparisons, { force: true });
    return paths;
  }
  await writeFile(comparisons, comparisonsCsv(summary), 'utf8');
  return { ...paths, comparisons };
}
