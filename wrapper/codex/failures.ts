import { BackendError } from '../backend.js';

const TAIL_CHARS = 2000;

export interface FinishedProcess {
  exitCode?: number;
  signal?: string;
  stderr: string;
  /** Set when parley itself stopped the process. */
  stoppedBy?: 'timeout' | 'cancel';
  timeoutMs: number;
  /** From --json: the turn.failed message and the top-level error events. */
  turnFailed?: string;
  streamErrors: string[];
  requestedSessionId?: string;
}

export const stderrTail = (stderr: string): string => (stderr.length > TAIL_CHARS ? stderr.slice(-TAIL_CHARS) : stderr);

/** Maps a codex exec run that did not succeed to one BackendError; undefined when it did succeed. */
export function classifyFailure(run: FinishedProcess): BackendError | undefined {
  const tail = stderrTail(run.stderr);
  const detail = { stderrTail: tail, ...(run.exitCode === undefined ? {} : { exitCode: run.exitCode }) };
  const lastError = lastErrorLine(run.stderr) ?? run.streamErrors.at(-1);

  if (run.stoppedBy === 'timeout') {
    const why = lastError ? ` (last: ${lastError})` : '';
    return new BackendError(
      'timeout',
      `codex exec did not finish within ${run.timeoutMs} ms and was killed; Codex retries an unreachable server forever, so check the provider URL and network${why}`,
      detail,
    );
  }
  if (run.stoppedBy === 'cancel') return new BackendError('canceled', 'codex exec was canceled and its process group killed', detail);

  if (/no rollout found for thread id/.test(run.stderr)) {
    return new BackendError('unknown-session', `codex has no session ${run.requestedSessionId ?? ''}: start a new one instead of resuming`.trim(), detail);
  }
  if (/already has an active writer/.test(run.stderr) || run.streamErrors.some((m) => /already has an active writer/.test(m))) {
    return new BackendError('session-busy', `codex session ${run.requestedSessionId ?? ''} is being resumed by another process; retry when it is done`, detail);
  }
  if (run.turnFailed !== undefined) {
    return new BackendError('turn-failed', `codex turn failed: ${run.turnFailed}`, { ...detail, ...httpStatus(run.turnFailed) });
  }
  if (run.exitCode !== 0 || run.signal) {
    const how = run.signal ? `was killed by ${run.signal}` : `exited with code ${run.exitCode}`;
    const why = lastError ?? firstMeaningfulLine(run.stderr);
    return new BackendError('exit', `codex exec ${how}${why ? `: ${why}` : ''}`, { ...detail, ...httpStatus(why ?? '') });
  }
  return undefined;
}

function lastErrorLine(stderr: string): string | undefined {
  const lines = stderr.split('\n').filter((line) => /^(ERROR|Error|error):? /.test(line));
  return lines.at(-1)?.replace(/^(ERROR|Error|error):?\s*/, '');
}

function firstMeaningfulLine(stderr: string): string | undefined {
  return stderr
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line && line !== 'Reading additional input from stdin...');
}

function httpStatus(message: string): { status?: number } {
  const match = /unexpected status (\d{3})/.exec(message);
  return match?.[1] ? { status: Number(match[1]) } : {};
}
