import { Command, Option } from 'commander';
import {
  assertPlanConfigs,
  createSweepProgress,
  expandSweep,
  loadSweepMatrix,
  mergeSweeps,
  parseComparison,
  parseShard,
  readYamlText,
  runSweep,
  selectShard,
  summarizeSweep,
  summaryJson,
  writeSummaryFiles,
  type ComparisonSpec,
  type Shard,
} from '../protocols/sweep/index.js';
import { parseConfig } from '../schemas/common.js';
import { DebateConfig } from '../schemas/debate.js';
import { DialogicConfig } from '../schemas/dialogic.js';
import { PriceTable, type SweepRunPlan } from '../schemas/sweep.js';
import { readTextFile } from '../state/read-file.js';
import { assertModelsReady, type ModelRole } from '../wrapper/readiness.js';
import { reportFailure, runInterruptible } from './shared.js';
import { asOptionParser, positiveInteger } from './option-parsers.js';
import { printOut } from './terminal.js';
import { parleyCommand } from './invocation.js';

interface RunOptions {
  out?: string;
  concurrency: number;
  shard?: Shard;
  perBackend: Record<string, number>;
  prices?: string;
  progress: 'auto' | 'tty' | 'plain';
}

/**
 * `parley sweep matrix.yaml --out dir/` runs a sweep (or one shard of it) and resumes it when rerun;
 * `parley sweep merge` combines shard folders; `parley sweep summarize` tabulates the measures.
 */
export function registerSweepCommand(program: Command): void {
  const sweep = program
    .command('sweep')
    .description('run every combination of a sweep file; rerunning skips finished runs and continues interrupted ones')
    .argument('[matrix]', 'the sweep file (YAML or JSON)')
    .option('--out <dir>', 'the sweep folder: one file per run, plus sweep.json and totals.json (required)')
    .option('--concurrency <n>', 'runs in flight at once', positiveInteger, 4)
    .option('--shard <i/n>', 'run only the i-th of n deterministic shares of the sweep (1-based)', parseShardOption)
    .addOption(
      new Option('--per-backend <[spec=]n>', 'model calls in flight per backend, e.g. 4 or openai:gpt-4.1=2 (repeatable)').argParser(collectLimit).default({}, 'the sweep file, else 8'),
    )
    .option('--prices <file>', 'a price table (YAML or JSON, USD per million tokens) over the defaults and the sweep file')
    .addOption(new Option('--progress <mode>', 'progress display').choices(['auto', 'tty', 'plain']).default('auto'))
    .action(async (matrixPath: string | undefined, options: RunOptions) => {
      await runInterruptible('sweep', (signal) => runCommand(matrixPath, options, signal));
    });

  sweep
    .command('merge <dirs...>')
    .description('combine the folders of several shards of one sweep')
    .option('--out <dir>', 'the merged folder, may be one of the inputs (required)')
    .action(async (dirs: string[], options: { out?: string }, command: Command) => {
      await reportFailure('sweep', async () => {
        // `--out` is also an option of `sweep` itself, which may have taken it.
        const out = options.out ?? (command.parent?.opts() as { out?: string } | undefined)?.out;
        if (!out) throw new Error(`give the merged folder: ${parleyCommand()} sweep merge <dirs...> --out <dir>`);
        const report = await mergeSweeps(dirs, out);
        const missing = report.missingShards.length ? `; shards never merged: ${report.missingShards.join(', ')}` : '';
        printOut(`merged ${dirs.length} folder(s) into ${report.dir}: ${report.finished}/${report.totalRuns} runs finished${missing}\n`);
        if (report.unfinished.length) printOut(`unfinished: ${report.unfinished.join(', ')}\n`);
      });
    });

  sweep
    .command('summarize <dir>')
    .description('one table of the measures by parameter with n, sd and 95% bootstrap intervals (writes summary.csv, summary.md, summary.json, runs.csv)')
    .option('--by <params>', 'comma-separated parameters to group by (default: all)')
    .option('--compare <param=a,b>', 'paired differences b - a over runs alike but for param (repeatable; writes comparisons.csv)', collectComparison, [])
    .addOption(new Option('--format <format>', 'what to print').choices(['markdown', 'csv', 'json']).default('markdown'))
    .action(async (dir: string, options: { by?: string; compare: ComparisonSpec[]; format: 'markdown' | 'csv' | 'json' }) => {
      await reportFailure('sweep', async () => {
        const by = options.by?.split(',').map((name) => name.trim()).filter(Boolean);
        const summary = await summarizeSweep(dir, { ...(by && { by }), compare: options.compare });
        await writeSummaryFiles(dir, summary);
        if (options.format === 'json') printOut(JSON.stringify(summaryJson(summary), null, 2) + '\n');
        else printOut(options.format === 'csv' ? summary.csv : summary.markdown);
        if (summary.unfinished.length) process.stderr.write(`${summary.unfinished.length} run(s) not finished yet are not in the table\n`);
        for (const comparison of summary.comparisons) {
          if (comparison.unpaired.length) process.stderr.write(`--compare ${comparison.parameter}: ${comparison.unpaired.length} run(s) without a finished partner are left out\n`);
        }
      });
    });
}

async function runCommand(matrixPath: string | undefined, options: RunOptions, signal: AbortSignal): Promise<void> {
  if (!matrixPath) throw new Error(`name the sweep file: ${parleyCommand()} sweep matrix.yaml --out dir/`);
  if (!options.out) throw new Error('give the sweep folder: --out dir/');
  const matrix = await loadSweepMatrix(matrixPath);
  const prices = options.prices ? parseConfig(PriceTable, readYamlText(await readTextFile(options.prices), options.prices), `price table ${options.prices}`) : undefined;
  // Before the folder is made: a configuration or a model that can only fail would fail every run it is in.
  const plans = expandSweep(matrix);
  const mine = options.shard ? selectShard(plans, options.shard) : plans;
  assertPlanConfigs(mine, matrixPath);
  await assertModelsReady(sweepModelRoles(mine), { what: 'the sweep' });
  const progress = createSweepProgress(process.stderr, options.progress === 'auto' ? process.stderr.isTTY === true : options.progress === 'tty');
  const report = await runSweep(matrix, {
    outDir: options.out,
    concurrency: options.concurrency,
    ...(options.shard && { shard: options.shard }),
    ...(prices && { prices }),
    perBackend: options.perBackend,
    signal,
    onEvent: progress.onEvent,
  });
  progress.finish();
  const { totals } = report;
  const cost = totals.costUsd === null ? 'cost unknown (a backend has no price)' : `$${totals.costUsd.toFixed(4)}`;
  printOut(
    `sweep ${report.dir}: ran ${report.ran.length}, already finished ${report.skipped.length}, failed ${report.failed.length}; ` +
      `all runs so far ${totals.usage.inputTokens.toLocaleString('en-US')} input + ${totals.usage.outputTokens.toLocaleString('en-US')} output tokens, ${cost}\n`,
  );
  // An interrupted sweep exits with 128+n (runInterruptible).
  if (signal.aborted) process.stderr.write('interrupted: rerun the same command to continue\n');
  else if (report.failed.length) process.exitCode = 1;
}

/**
 * Each distinct model these runs call, once, labelled with every role it plays in them as the debate
 * and dialogic commands name roles ("agent 2, CRIT judge (openai:gpt-4.1)"). A run whose config is
 * invalid is left out: it fails on its config before calling any model.
 */
export function sweepModelRoles(plans: readonly SweepRunPlan[]): ModelRole[] {
  const rolesBySpec = new Map<string, Set<string>>();
  for (const plan of plans) {
    for (const { role, spec } of planModels(plan)) {
      const roles = rolesBySpec.get(spec) ?? new Set<string>();
      rolesBySpec.set(spec, roles.add(role));
    }
  }
  return [...rolesBySpec].map(([spec, roles]) => ({ label: `${[...roles].sort(byRoleName).join(', ')} (${spec})`, spec }));
}

const byRoleName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

function planModels(plan: SweepRunPlan): { role: string; spec: string }[] {
  if (plan.protocol === 'dialogic') {
    const parsed = DialogicConfig.safeParse(plan.config);
    if (!parsed.success) return [];
    return [
      { role: 'model A', spec: parsed.data.modelA },
      { role: 'model B', spec: parsed.data.modelB },
    ];
  }
  const parsed = DebateConfig.safeParse(plan.config);
  if (!parsed.success) return [];
  const { agents, crit, rca } = parsed.data;
  return [
    ...agents.map((agent, index) => ({ role: `agent ${index + 1}`, spec: agent.model })),
    ...(crit ? [{ role: 'CRIT judge', spec: crit.judge }] : []),
    ...(rca ? [{ role: 'RCA judge', spec: rca.judge }] : []),
  ];
}

const parseShardOption: (value: string) => Shard = asOptionParser(parseShard);
const parseComparisonOption = asOptionParser(parseComparison);

function collectComparison(value: string, previous: ComparisonSpec[]): ComparisonSpec[] {
  return [...previous, parseComparisonOption(value)];
}

function collectLimit(value: string, previous: Record<string, number>): Record<string, number> {
  const equals = value.lastIndexOf('=');
  const key = equals === -1 ? 'default' : value.slice(0, equals);
  return { ...previous, [key]: positiveInteger(equals === -1 ? value : value.slice(equals + 1)) };
}
