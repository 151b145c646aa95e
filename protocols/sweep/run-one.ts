import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { debateInFolder } from '../debate/run-to-file.js';
import { parseDebateConfig } from '../debate/run.js';
import { dialogicInFolder } from '../dialogic/run-to-file.js';
import { parseDialogicConfig } from '../dialogic/run.js';
import { canonicalJson } from '../canonical-json.js';
import { UserFacingError } from '../../schemas/user-facing-error.js';
import { runInFolder, type RunInFolderOptions } from '../run-in-folder.js';
import type { RunProgress } from '../run-protocol.js';
import type { DebateConfigInput } from '../../schemas/debate.js';
import type { DialogicConfigInput } from '../../schemas/dialogic.js';
import { SweepRunResult, type PriceTable, type SweepRunPlan } from '../../schemas/sweep.js';
import type { Backend } from '../../wrapper/backend.js';
import { spendOf, type Spend } from './spend.js';
import { writeJsonFileAtomic } from '../../state/atomic-write.js';

/** Where a run's files go inside a sweep folder. */
export const runFiles = (sweepDir: string, id: string) => ({
  output: join(sweepDir, `${id}.json`),
  dir: join(sweepDir, `${id}.run`),
  result: join(sweepDir, `${id}.run`, 'result.json'),
  audit: join(sweepDir, `${id}.run`, 'audit.jsonl'),
});

export async function readRunResult(sweepDir: string, id: string): Promise<SweepRunResult | undefined> {
  try {
    const parsed = SweepRunResult.safeParse(JSON.parse(await readFile(runFiles(sweepDir, id).result, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const MAX_LISTED = 5;

/**
 * Parses every run's configuration as its run will, before anything is made: one UserFacingError
 * naming each combination whose configuration no run can start with (repetitions share theirs).
 */
export function assertPlanConfigs(plans: readonly SweepRunPlan[], file = 'the sweep file'): void {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const plan of plans) {
    const key = canonicalJson(plan.config);
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      if (plan.protocol === 'dialogic') parseDialogicConfig(plan.config as DialogicConfigInput);
      else parseDebateConfig(plan.config as DebateConfigInput);
    } catch (error) {
      const params = Object.entries(plan.params).map(([name, label]) => `${name}=${label}`).join(', ');
      problems.push(`${params ? `the runs with ${params}` : 'every run'}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (problems.length === 0) return;
  const listed = problems.length > MAX_LISTED ? [...problems.slice(0, MAX_LISTED), `and ${problems.length - MAX_LISTED} more`] : problems;
  throw new UserFacingError(`${file} gives configurations no run can start with, so nothing was run or written; correct them:\n${listed.map((line) => `  ${line}`).join('\n')}`, {
    code: 'invalid-config',
  });
}

export interface RunOneOptions {
  sweepDir: string;
  backendFor: (spec: string) => Backend;
  prices: PriceTable;
  signal: AbortSignal;
  onProgress?: (update: RunProgress) => void;
  now?: () => Date;
}

/**
 * Runs (or continues, from its audit log) one run of a sweep and records how it ended. A canceled
 * attempt records nothing: the next sweep continues it like a crashed one.
 */
export async function runOne(plan: SweepRunPlan, options: RunOneOptions): Promise<SweepRunResult | undefined> {
  const files = runFiles(options.sweepDir, plan.id);
  const now = options.now ?? (() => new Date());
  const previous = await readRunResult(options.sweepDir, plan.id);
  const startedAt = now().toISOString();
  let error: string | undefined;
  let spend: Spend;
  try {
    const paths = { outPath: files.output, dir: files.dir };
    const protocolRun: Pick<RunInFolderOptions<unknown>, 'dir' | 'outPath' | 'runId' | 'run' | 'output'> =
      plan.protocol === 'dialogic' ? dialogicInFolder(plan.config as DialogicConfigInput, paths) : debateInFolder(plan.config as DebateConfigInput, { ...paths, runId: plan.id });
    const outcome = await runInFolder({
      ...protocolRun,
      backendFor: options.backendFor,
      signal: options.signal,
      prices: options.prices,
      ...(plan.protocol === 'dialogic' && { now }),
      ...(options.onProgress && { onProgress: options.onProgress }),
    });
    if (!outcome.ok && options.signal.aborted) return undefined;
    if (!outcome.ok) error = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    spend = outcome.spend;
  } catch (caught) {
    // The run folder is taken by another process: this attempt spent nothing.
    if (options.signal.aborted) return undefined;
    error = caught instanceof Error ? caught.message : String(caught);
    spend = spendOf(new Map(), options.prices);
  }
  const result: SweepRunResult = {
    kind: 'parley.sweep-run',
    id: plan.id,
    status: error === undefined ? 'ok' : 'failed',
    params: plan.params,
    repetition: plan.repetition,
    attempts: (previous?.attempts ?? 0) + 1,
    startedAt: previous?.startedAt ?? startedAt,
    finishedAt: now().toISOString(),
    ...(error !== undefined && { error }),
    ...spend,
  };
  await writeJsonFileAtomic(files.result, result);
  return result;
}
