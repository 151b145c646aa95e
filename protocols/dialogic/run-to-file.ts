import { basename, resolve } from 'node:path';
import { runFolderFor } from '../run-folder.js';
import { runInFolder, type RunInFolderOptions } from '../run-in-folder.js';
import type { Backend } from '../../wrapper/backend.js';
import type { RunProgress } from '../run-protocol.js';
import type { DialogicConfig, DialogicConfigInput } from '../../schemas/dialogic.js';
import { parseDialogicConfig, runDialogic, type DialogicRunOutput } from './run.js';

export interface RunToFileOptions {
  /** Where the seed-format run JSON goes. */
  outPath: string;
  /** The run folder (audit.jsonl, baseline.json); default `<out without its extension>.run/` beside it. */
  dir?: string;
  backendFor?: (spec: string) => Backend;
  signal?: AbortSignal;
  onProgress?: (update: RunProgress) => void;
  now?: () => Date;
  /** How to start a fresh run instead, when the run folder holds a run with another configuration. */
  freshRun?: string;
}

/** A dialogic run as runInFolder takes it: the output file is the seed-format run JSON. */
export function dialogicInFolder(
  config: DialogicConfigInput | DialogicConfig,
  paths: { outPath: string; dir?: string; freshRun?: string },
): Pick<RunInFolderOptions<DialogicRunOutput>, 'dir' | 'outPath' | 'runId' | 'run' | 'output' | 'claim'> {
  const parsed = parseDialogicConfig(config);
  const dir = resolve(paths.dir ?? runFolderFor(paths.outPath));
  return {
    dir,
    outPath: paths.outPath,
    runId: basename(dir).replace(/[^A-Za-z0-9_-]/g, '-'),
    run: (ctx) => runDialogic(parsed, ctx),
    output: (output) => output.run,
    claim: { config: { protocol: 'dialogic', config: parsed }, ...(paths.freshRun !== undefined && { freshRun: paths.freshRun }) },
  };
}

/**
 * Runs the protocol outside the MCP server (CLI, tests) through runInFolder. Calling it again
 * with the same paths after a crash resumes the run from the log.
 */
export async function runDialogicToFile(config: DialogicConfigInput | DialogicConfig, options: RunToFileOptions): Promise<DialogicRunOutput> {
  const { outPath, dir, freshRun, ...rest } = options;
  const outcome = await runInFolder({ ...dialogicInFolder(config, { outPath, ...(dir !== undefined && { dir }), ...(freshRun !== undefined && { freshRun }) }), ...rest });
  if (!outcome.ok) throw outcome.error;
  return outcome.result;
}
