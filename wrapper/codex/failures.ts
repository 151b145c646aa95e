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
  /** An answer or a completed turn came before the failure. */
  answered?: boolean;
}

/**
 * Failures between Codex and the model provider that pass by themselves, as codex 0.169 words them:
 * a stream cut before `response.completed`, a provider's 500 ("high demand"), 502, 503 or 504. Not
 * 429 (a quota or a rate limit Codex already waited on), not a timeout (a turn that long may have
 * been billed), not a 4xx.
 */
const TRANSIENT = /stream disconnected before completion|currently experiencing high demand|unexpected status 50[234]\b/;

/** Safe to send the same turn again at once: a transient failure before any answer. */
export const resendable = (error: unknown): error is BackendError => error instanceof BackendError && error.detail.transient === true && !error.detail.answered;

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
    return withTransience(new BackendError('turn-failed', `codex turn failed: ${run.turnFailed}`, { ...detail, ...httpStatus(run.turnFailed) }), run);
  }
  if (run.exitCode !== 0 || run.signal) {
    const how = run.signal ? `was killed by ${run.signal}` : `exited with code ${run.exitCode}`;
    const why = lastError ?? firstMeaningfulLine(run.stderr);
    return withTransience(new BackendError('exit', `codex exec ${how}${why ? `: ${why}` : ''}`, { ...detail, ...httpStatus(why ?? '') }), run);
  }
  return undefined;
}

function withTransience(error: BackendError, run: FinishedProcess): BackendError {
  if (!TRANSIENT.test(error.message)) return error;
  const answered = run.answered === true;
  const why = answered
    ? 'a transient failure, but Codex had answered before it: sending the turn again would bill it twice'
    : 'a transient failure between Codex and the model provider';
  return new BackendError(error.kind, `${error.message} (${why})`, { ...error.detail, transient: true, answered });
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
