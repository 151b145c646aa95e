import { basename, join, resolve } from 'node:path';
import { runFolderFor } from '../run-folder.js';
import { makePrivateDir, openPrivateAuditLog } from '../../state/private-files.js';
import type { Backend } from '../../wrapper/backend.js';
import { createBackend } from '../../wrapper/model-spec.js';
import type { RunProgress } from '../run-protocol.js';
import type { DialogicConfig, DialogicConfigInput } from '../../schemas/dialogic.js';
import { runDialogic, type DialogicRunOutput } from './run.js';
import { writeJsonFileAtomic } from '../../state/atomic-write.js';

export interface RunToFileOptions {
  /** Where the seed-format run JSON goes. */
  outPath: string;
  /** The run folder (audit.jsonl, baseline.json); default `<out without its extension>.run/` beside it. */
  dir?: string;
  backendFor?: (spec: string) => Backend;
  signal?: AbortSignal;
  onProgress?: (update: RunProgress) => void;
  now?: () => Date;
}

/**
 * Runs the protocol outside the MCP server (CLI, tests): sets up the run folder and its audit
 * log itself. Calling it again with the same paths after a crash resumes the run from the log.
 */
export async function runDialogicToFile(config: DialogicConfigInput | DialogicConfig, options: RunToFileOptions): Promise<DialogicRunOutput> {
  const outPath = resolve(options.outPath);
  const dir = resolve(options.dir ?? runFolderFor(outPath));
  await makePrivateDir(dir);
  const backends = new Map<string, Backend>();
  const backendFor =
    options.backendFor ??
    ((spec: string) => {
      let backend = backends.get(spec);
      if (!backend) {
        backend = createBackend(spec);
        backends.set(spec, backend);
      }
      return backend;
    });
  const output = await runDialogic(config, {
    runId: basename(dir).replace(/[^A-Za-z0-9_-]/g, '-'),
    dir,
    audit: await openPrivateAuditLog(join(dir, 'audit.jsonl')),
    backendFor,
    signal: options.signal ?? new AbortController().signal,
    progress: options.onProgress ?? (() => undefined),
    now: options.now ?? (() => new Date()),
  });
  await writeJsonFileAtomic(outPath, output.run);
  return output;
}
