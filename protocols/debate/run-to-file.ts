import { join, resolve } from 'node:path';
import { resumableRunFolderFor } from '../run-folder.js';
import type { DebateConfig, DebateConfigInput, DebateTranscript } from '../../schemas/debate.js';
import { makePrivateDir, openPrivateAuditLog } from '../../state/private-files.js';
import type { Backend } from '../../wrapper/backend.js';
import { createBackend } from '../../wrapper/model-spec.js';
import type { RunProgress } from '../run-protocol.js';
import { runDebate } from './run.js';
import { writeJsonFileAtomic } from '../../state/atomic-write.js';

export interface RunDebateToFileOptions {
  outPath: string;
  /** Folder for the audit log; defaults to `<out without its extension>.run/` beside it. Reusing it resumes the run. */
  dir?: string;
  runId?: string;
  backendFor?: (spec: string) => Backend;
  signal?: AbortSignal;
  onProgress?: (update: RunProgress) => void;
}


/** Runs a debate outside the MCP server (CLI, tests, benchmarks); the transcript is saved after every round. */
export async function runDebateToFile(config: DebateConfigInput | DebateConfig, options: RunDebateToFileOptions): Promise<DebateTranscript> {
  const outPath = resolve(options.outPath);
  const dir = resolve(options.dir ?? resumableRunFolderFor(outPath));
  await makePrivateDir(dir);
  const backends = new Map<string, Backend>();
  const backendFor =
    options.backendFor ??
    ((spec: string) => {
      const existing = backends.get(spec);
      if (existing) return existing;
      const created = createBackend(spec);
      backends.set(spec, created);
      return created;
    });
  const save = (transcript: DebateTranscript) => writeJsonFileAtomic(outPath, transcript);
  const transcript = await runDebate(
    config,
    {
      runId: options.runId ?? 'debate',
      dir,
      audit: await openPrivateAuditLog(join(dir, 'audit.jsonl')),
      backendFor,
      signal: options.signal ?? new AbortController().signal,
      progress: options.onProgress ?? (() => {}),
      now: () => new Date(),
    },
    { onRound: save },
  );
  await save(transcript);
  return transcript;
}
