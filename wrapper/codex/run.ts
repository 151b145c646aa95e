import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { Usage } from '../../schemas/common.js';
import { BackendError } from '../backend.js';
import { buildCodexArgs, type CodexArgvInput } from './argv.js';
import { descendantsOf, killAll, processesWithEnv } from './process-tree.js';
import { WATCHDOG_GRACE_MS, WATCHDOG_SPAWN_FAILED, watchdogCommand } from './watchdog.js';
import { randomUUID } from 'node:crypto';
import { parseEventLine, parseJsonEvents, type CodexEvent } from './events.js';
import { unreachableError, watchReach } from './unreachable.js';
import { classifyFailure, resendable, stderrTail } from './failures.js';
import { parsePlainOutput } from './plain.js';
import { resolveCodexPath, spawnTarget } from './resolve-path.js';
import { fromRawUsage, recalledCumulative, rememberCumulative, sessionKey, usageDifference, withSessionQueue } from './session-state.js';
import { codexEnvironment, COMMAND_ENV_POLICY } from './child-env.js';
import { checkWorkFolder, pathsToHide } from './hidden-paths.js';
import { rememberSecretsOf } from '../../schemas/secrets.js';

/**
 * argv-level options (session, -C, sandbox, model, effort, -c) are documented in argv.ts; `hidden`
 * here names folders, to which Codex's own home is always added (hidden-paths.ts).
 */
export interface CodexCallOptions extends Omit<CodexArgvInput, 'outputSchemaFile'> {
  prompt: string;
  codexPath?: string;
  /** Merged over process.env. */
  env?: NodeJS.ProcessEnv;
  /** Always enforced (default 10 minutes): Codex retries an unreachable server forever. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** A JSON schema for a structured reply (`--output-schema`); Codex does not validate the reply. */
  outputSchema?: object;
  onEvent?: (event: CodexEvent) => void;
  /** The thread's cumulative usage after the previous turn, when the caller persisted it across processes. */
  previousCumulativeUsage?: Usage;
}

export interface CodexCallResult {
  answer: string;
  sessionId: string;
  /** This turn only. */
  usage: Usage;
  /** As Codex reports it: cumulated over the thread. */
  cumulativeUsage?: Usage;
  events: CodexEvent[];
  warnings: string[];
  commands: { command: string; exitCode: number | null; output: string }[];
  argv: string[];
  durationMs: number;
  /** The model Codex reported (plain mode header), else the one asked for. */
  model?: string;
  /** The transient failure after which this turn was sent a second time. */
  retriedAfter?: string;
}

export const DEFAULT_CODEX_TIMEOUT_MS = 600_000;
/** Past the watchdog's own grace: only a watchdog that failed to end codex is still there by then. */
const FALLBACK_KILL_MS = WATCHDOG_GRACE_MS + 3_000;
/** An environment variable naming the call: what a cancel finds Codex's sandboxed commands by. */
const CALL_TAG = 'PARLEY_CODEX_CALL';

/**
 * Runs one `codex exec` turn. Throws BackendError on every failure. A transient failure before any
 * answer (failures.ts) is sent again once, by itself: the same prompt, in the same thread when it
 * resumes one (the failed attempt completed no turn there), else in a new one.
 */
export async function runCodex(opts: CodexCallOptions): Promise<CodexCallResult> {
  if (opts.env) rememberSecretsOf(opts.env);
  const parleyEnv = { ...process.env, ...opts.env };
  const env = codexEnvironment(parleyEnv);
  // Resolved from parley's own environment: PARLEY_CODEX_PATH is not (and must not be) passed to codex.
  const codexPath = resolveCodexPath({ ...(opts.codexPath ? { codexPath: opts.codexPath } : {}), env: parleyEnv });
  const attempt = () => (opts.sessionId ? withSessionQueue(sessionKey(env.CODEX_HOME, opts.sessionId), () => runOnce(opts, env, codexPath)) : runOnce(opts, env, codexPath));
  try {
    return await attempt();
  } catch (error) {
    if (!resendable(error) || opts.signal?.aborted) throw error;
    try {
      return { ...(await attempt()), retriedAfter: error.message };
    } catch (again) {
      if (!(again instanceof BackendError)) throw again;
      throw new BackendError(again.kind, `${again.message}; parley had sent the turn a second time after: ${error.message}`, again.detail);
    }
  }
}

async function runOnce(opts: CodexCallOptions, env: NodeJS.ProcessEnv, codexPath: string): Promise<CodexCallResult> {
  if (opts.signal?.aborted) throw new BackendError('canceled', 'codex exec was canceled before it started');
  const schemaDir = opts.outputSchema ? await mkdtemp(join(tmpdir(), 'parley-codex-schema-')) : undefined;
  try {
    const outputSchemaFile = schemaDir ? join(schemaDir, 'output-schema.json') : undefined;
    if (outputSchemaFile) await writeFile(outputSchemaFile, JSON.stringify(opts.outputSchema), 'utf8');
    const callTag = randomUUID();
    // Commands Codex runs see only core variables plus the call tag (cancel finds them by it); the policy comes last so no caller can loosen it.
    const config = { ...opts.config, ...COMMAND_ENV_POLICY, [`shell_environment_policy.set.${CALL_TAG}`]: JSON.stringify(callTag) };
    const hidden = opts.sandbox === 'danger-full-access' ? [] : pathsToHide(opts.hidden ?? [], env, codexPath);
    checkWorkFolder(opts.cwd, hidden);
    const args = buildCodexArgs({ ...opts, config, hidden, ...(outputSchemaFile ? { outputSchemaFile } : {}) });
    return await spawnAndParse(opts, env, codexPath, args, callTag);
  } finally {
    if (schemaDir) await rm(schemaDir, { recursive: true, force: true });
  }
}

async function spawnAndParse(opts: CodexCallOptions, env: NodeJS.ProcessEnv, codexPath: string, args: string[], callTag: string): Promise<CodexCallResult> {
  const mode = opts.mode ?? 'json';
  const timeoutMs = opts.timeoutMs ?? DEFAULT_CODEX_TIMEOUT_MS;
  const { file, prefixArgs } = spawnTarget(codexPath);
  const started = performance.now();
  // The watchdog ends codex and everything it started when parley closes its channel: to cancel a call,
  // and by itself whenever parley exits, however it exits (watchdog.ts). Its own process group, so a
  // signal to parley's group (Ctrl-C, `timeout`) reaches it only through parley.
  const guarded = watchdogCommand(file, [...prefixArgs, ...args]);
  const subprocess = execa(guarded.file, guarded.args, {
    input: opts.prompt,
    env: { ...env, [CALL_TAG]: callTag },
    extendEnv: false,
    reject: false,
    detached: true,
    ipc: true,
    stripFinalNewline: false,
    maxBuffer: 64 * 1024 * 1024,
  });

  let stoppedBy: 'timeout' | 'cancel' | 'unreachable' | undefined;
  let fallback: NodeJS.Timeout | undefined;
  // Only if the watchdog did not end codex: kill the group and what is below it.
  const killEverything = async (): Promise<void> => {
    if (subprocess.pid === undefined) return;
    const tree = await descendantsOf(subprocess.pid);
    try {
      process.kill(-subprocess.pid, 'SIGKILL');
    } catch {
      // the group is already gone
    }
    killAll([...new Set([...tree, ...processesWithEnv(CALL_TAG, callTag)])], 'SIGKILL');
  };
  const stop = (reason: 'timeout' | 'cancel' | 'unreachable'): void => {
    if (stoppedBy) return;
    stoppedBy = reason;
    if (subprocess.connected) subprocess.disconnect();
    fallback = setTimeout(() => void killEverything(), FALLBACK_KILL_MS);
  };
  const timer = setTimeout(() => stop('timeout'), timeoutMs);
  const onAbort = (): void => stop('cancel');
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  // Codex retries a provider it cannot reach for as long as it is let: parley ends such a turn itself.
  const reach = watchReach(() => stop('unreachable'));
  if (mode === 'json') {
    streamEvents(subprocess.stdout, (event) => {
      reach.onEvent(event);
      opts.onEvent?.(event);
    });
  }

  const result = await subprocess;
  reach.stop();
  clearTimeout(timer);
  clearTimeout(fallback);
  opts.signal?.removeEventListener('abort', onAbort);
  const durationMs = performance.now() - started;

  const stdout = String(result.stdout ?? '');
  const stderr = String(result.stderr ?? '');
  // The watchdog (or node itself) could not be started, or the watchdog could not start codex.
  const notStarted = result.exitCode === undefined && !result.signal && !stoppedBy;
  const watchdogFailure = result.exitCode === WATCHDOG_SPAWN_FAILED ? /^parley watchdog: cannot start codex: (\w+)/m.exec(stderr) : null;
  if (notStarted || watchdogFailure) {
    const code = watchdogFailure?.[1] ?? (result as { code?: string }).code;
    const kind = code === 'ENOENT' || code === 'EACCES' ? 'not-found' : 'exit';
    const why = watchdogFailure ? `spawn ${code}` : result.shortMessage;
    throw new BackendError(kind, `could not start codex at ${codexPath}: ${why}. Install it with \`npm install @openai/codex\`.`, {
      stderrTail: stderrTail(stderr),
    });
  }

  const argv = [file, ...prefixArgs, ...args];
  if (stoppedBy === 'unreachable') throw await unreachableError(reach.last() ?? 'no answer', { env, ...(opts.config ? { overrides: opts.config } : {}), stderr });
  const base = { stderr, timeoutMs, ...(stoppedBy ? { stoppedBy } : {}), ...(opts.sessionId ? { requestedSessionId: opts.sessionId } : {}) };
  const exit = { ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }), ...(result.signal ? { signal: result.signal } : {}) };

  if (mode === 'plain') {
    const parsed = parsePlainOutput(stdout, stderr);
    // Plain stdout is empty on failure; stderr's `codex` block is the model speaking (a prompt line "codex" only errs towards not resending).
    throwIfFailed(classifyFailure({ ...base, ...exit, streamErrors: parsed.errors, answered: parsed.answer.trim() !== '' || /^codex$/m.test(stderr) }));
    const warnings = [...parsed.warnings, 'plain mode reports only a token total: it is counted as input tokens'];
    const cumulative = parsed.totalTokens === undefined ? undefined : { inputTokens: parsed.totalTokens, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
    return finish(opts, env, { answer: parsed.answer, sessionId: parsed.sessionId, cumulative, events: [], warnings, commands: [], argv, durationMs, model: parsed.model ?? opts.model, stderr });
  }

  const parsed = parseJsonEvents(stdout);
  const answered = parsed.answer.trim() !== '' || parsed.usage !== undefined;
  throwIfFailed(classifyFailure({ ...base, ...exit, streamErrors: parsed.streamErrors, answered, ...(parsed.turnFailed === undefined ? {} : { turnFailed: parsed.turnFailed }) }));
  const cumulative = parsed.usage ? fromRawUsage(parsed.usage) : undefined;
  return finish(opts, env, { answer: parsed.answer, sessionId: parsed.threadId, cumulative, events: parsed.events, warnings: parsed.warnings, commands: parsed.commands, argv, durationMs, model: opts.model, stderr });
}

interface RawOutcome {
  answer: string;
  sessionId: string | undefined;
  cumulative: Usage | undefined;
  events: CodexEvent[];
  warnings: string[];
  commands: CodexCallResult['commands'];
  argv: string[];
  durationMs: number;
  model: string | undefined;
  stderr: string;
}

/** Checks a run that exited 0: session identity, a non-empty answer, then the per-turn usage. */
function finish(opts: CodexCallOptions, env: NodeJS.ProcessEnv, outcome: RawOutcome): CodexCallResult {
  const detail = { stderrTail: stderrTail(outcome.stderr), exitCode: 0 };
  if (!outcome.sessionId) throw new BackendError('empty-answer', 'codex exited 0 but reported no session id: its output format was not understood', detail);
  if (opts.sessionId && outcome.sessionId !== opts.sessionId) {
    throw new BackendError(
      'session-mismatch',
      `asked to resume codex session ${opts.sessionId} but codex answered in session ${outcome.sessionId} (it silently starts a new session for an unknown name)`,
      detail,
    );
  }
  if (!outcome.answer.trim()) throw new BackendError('empty-answer', 'codex exited 0 with an empty answer: a format failure, not an answer', detail);

  const warnings = [...outcome.warnings];
  const key = sessionKey(env.CODEX_HOME, outcome.sessionId);
  let usage: Usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
  if (outcome.cumulative) {
    const previous = opts.sessionId ? (opts.previousCumulativeUsage ?? recalledCumulative(key)) : undefined;
    if (opts.sessionId && !previous) warnings.push('usage before this resume is unknown: the turn usage is the cumulative figure of the thread');
    usage = usageDifference(outcome.cumulative, previous);
    rememberCumulative(key, outcome.cumulative);
  } else {
    warnings.push('codex reported no token usage');
  }
  return {
    answer: outcome.answer,
    sessionId: outcome.sessionId,
    usage,
    ...(outcome.cumulative ? { cumulativeUsage: outcome.cumulative } : {}),
    events: outcome.events,
    warnings,
    commands: outcome.commands,
    argv: outcome.argv,
    durationMs: outcome.durationMs,
    ...(outcome.model ? { model: outcome.model } : {}),
  };
}

function throwIfFailed(error: BackendError | undefined): void {
  if (error) throw error;
}

function streamEvents(stdout: NodeJS.ReadableStream | null, onEvent: (event: CodexEvent) => void): void {
  if (!stdout) return;
  let pending = '';
  stdout.on('data', (chunk: Buffer | string) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const event = parseEventLine(line);
      if (!event) continue;
      try {
        onEvent(event);
      } catch (error) {
        console.error('parley: codex onEvent handler threw', error);
      }
    }
  });
}
