import { createLiveLine, type LiveLine, type LiveSink } from './live-line.js';
import { printErr } from './terminal.js';

/** The run's live line on stderr (see live-line.ts): progress, and who is being waited on. */
export function progressDisplay(stream: LiveSink): LiveLine {
  return createLiveLine(stream);
}

/** Runs a command's work; a failure is one line on stderr and exit code 1, never a stack trace. */
export async function reportFailure(command: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    printErr(`parley ${command}: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}

/** A run that finished, but with turns or judge calls that gave nothing usable (named on stderr): not 0, and not 1 (a run that could not start, or failed). */
export const EXIT_RUN_HAD_FAILURES = 3;

export const EXIT_CODES_HELP = [
  'Exit codes:',
  '  0      the run finished and every call answered',
  '  1      the run could not start (nothing was called), or it failed',
  `  ${EXIT_RUN_HAD_FAILURES}      the run finished, but some turns or judge calls failed: stderr names them (agent and rounds), the report marks them`,
  '  128+n  stopped by signal n (Ctrl-C: 130); the same command resumes the run',
].join('\n');

/** How a protocol command starts a fresh run when its run folder holds another configuration. */
export function freshRunHint(dir: string | undefined): string {
  return `give another --out${dir === undefined ? '' : ' and --dir'}, or remove that folder first`;
}

const STOP_SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
/** A run that has not stopped this long after the first signal is ended at once. */
const FORCE_EXIT_MS = 10_000;

/**
 * The one place where protocol commands handle SIGINT, SIGTERM and SIGHUP (Ctrl-C, `timeout`, Slurm
 * pre-emption, a closed terminal). The first signal aborts the run's signal: model calls and codex
 * processes are stopped, the audit log keeps what was done, and the command exits with 128+n. A
 * second signal, or a run still going after FORCE_EXIT_MS, exits at once: each codex watchdog sees
 * parley go and ends its codex and the commands codex started (wrapper/codex/watchdog.ts).
 */
export async function runInterruptible(command: string, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const controller = new AbortController();
  let received: keyof typeof STOP_SIGNALS | undefined;
  let force: NodeJS.Timeout | undefined;
  const onSignal = (signal: keyof typeof STOP_SIGNALS) => {
    if (received) process.exit(128 + STOP_SIGNALS[signal]);
    received = signal;
    controller.abort(new Error(`interrupted by ${signal}: run the same command again to resume`));
    force = setTimeout(() => process.exit(128 + STOP_SIGNALS[signal]), FORCE_EXIT_MS);
    force.unref();
  };
  const signals = Object.keys(STOP_SIGNALS) as (keyof typeof STOP_SIGNALS)[];
  for (const signal of signals) process.on(signal, onSignal);
  try {
    await reportFailure(command, () => work(controller.signal));
  } finally {
    clearTimeout(force);
    // Once interrupted, the handler stays until the process is gone: a second signal arriving while the
    // stopped run winds down still ends it with 128+n, not by the signal's default action.
    if (!received) for (const signal of signals) process.off(signal, onSignal);
    // A run that failed early (one model's error rejects the round) leaves its other calls in
    // flight, and a codex child retrying an unreachable server never ends by itself: cancel them all.
    if (!controller.signal.aborted) controller.abort(new Error(`parley ${command} has finished`));
  }
  if (received) process.exitCode = 128 + STOP_SIGNALS[received];
}
