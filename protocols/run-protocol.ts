import type { z } from 'zod';
import type { Backend } from '../wrapper/backend.js';
import type { AuditLog } from '../state/audit-log.js';

/**
 * A protocol the server runs by itself (dialogic, debate). runInFolder (run-in-folder.ts) owns the
 * run folder, its lock, the audit log, the output file and the spend, for the server, the CLI and
 * sweeps; the run manager owns ids, cancellation and progress; a protocol owns its rules and its
 * output. `run` must be resumable: when `audit` already holds records from an interrupted attempt,
 * completed model calls are replayed from it (protocols/recorded-call.ts) instead of being sent again.
 */
export interface RunProtocol<Config, Output> {
  readonly name: 'dialogic' | 'debate';
  readonly configSchema: z.ZodType<Config>;
  run(config: Config, ctx: RunContext): Promise<Output>;
  /** Every model the run calls, with its config path, checked before a run starts. */
  modelSpecs?(config: Config): { path: (string | number)[]; spec: string }[];
  /**
   * Measures recomputed from a saved output file (ours, or a foreign file the protocol tolerates).
   * `dir` is the run's folder when the output belongs to a run (extra files such as a baseline).
   */
  analyze(output: unknown, context?: { dir?: string }): RunAnalysis | Promise<RunAnalysis>;
}

export interface RunContext {
  runId: string;
  /** The run's own folder: the protocol may write extra files here (e.g. baseline.json). */
  dir: string;
  audit: AuditLog;
  backendFor(spec: string): Backend;
  signal: AbortSignal;
  progress(update: RunProgress): void;
  now(): Date;
}

export interface RunProgress {
  done: number;
  total?: number;
  message: string;
}

export interface RunAnalysis {
  /** Machine-readable measures. */
  measures: Record<string, unknown>;
  /** The same as a plain-text table for terminals. */
  table: string;
}
