import { resolve } from 'node:path';
import { resumableRunFolderFor } from '../run-folder.js';
import { runInFolder, type RunInFolderOptions } from '../run-in-folder.js';
import type { DebateConfig, DebateConfigInput, DebateTranscript } from '../../schemas/debate.js';
import type { Backend } from '../../wrapper/backend.js';
import type { RunProgress } from '../run-protocol.js';
import { parseDebateConfig, runDebate } from './run.js';

export interface RunDebateToFileOptions {
  outPath: string;
  /** Folder for the audit log; defaults to `<out without its extension>.run/` beside it. Reusing it resumes the run. */
  dir?: string;
  runId?: string;
  backendFor?: (spec: string) => Backend;
  signal?: AbortSignal;
  onProgress?: (update: RunProgress) => void;
  /** How to start a fresh run instead, when the run folder holds a debate with another configuration. */
  freshRun?: string;
}

/** A debate as runInFolder takes it: the transcript is saved after every round too. */
export function debateInFolder(
  config: DebateConfigInput | DebateConfig,
  paths: { outPath: string; dir?: string; runId?: string; freshRun?: string },
): Pick<RunInFolderOptions<DebateTranscript>, 'dir' | 'outPath' | 'runId' | 'run' | 'claim'> {
  const parsed = parseDebateConfig(config);
  return {
    dir: resolve(paths.dir ?? resumableRunFolderFor(paths.outPath)),
    outPath: paths.outPath,
    runId: paths.runId ?? 'debate',
    run: (ctx, save) => runDebate(parsed, ctx, { onRound: save }),
    claim: { config: { protocol: 'debate', config: parsed }, ...(paths.freshRun !== undefined && { freshRun: paths.freshRun }) },
  };
}

/** Runs a debate outside the MCP server (CLI, tests, benchmarks) through runInFolder. */
export async function runDebateToFile(config: DebateConfigInput | DebateConfig, options: RunDebateToFileOptions): Promise<DebateTranscript> {
  const { outPath, dir, runId, freshRun, ...rest } = options;
  const paths = { outPath, ...(dir !== undefined && { dir }), ...(runId !== undefined && { runId }), ...(freshRun !== undefined && { freshRun }) };
  const outcome = await runInFolder({ ...debateInFolder(config, paths), ...rest });
  if (!outcome.ok) throw outcome.error;
  return outcome.result;
}
