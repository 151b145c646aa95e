/**
 * Backend for the Claude Code CLI: `claude -p --output-format json`, prompt on stdin, sessions
 * resumed with `--resume <id>`. The child runs in its own process group so a timeout or cancel
 * kills everything it started.
 */
import path from 'node:path';
import { execa } from 'execa';
import { z } from 'zod';
import type { Usage } from '../schemas/common.js';
import { type Backend, BackendError, type Conversation, type ModelReply, type SendOptions } from './backend.js';
import { resolveClaudeBinary } from './claude-path.js';
import { passthroughEnv, scrub, secretValues, tail } from './cli-env.js';
import { jsonSchemaOf } from './json-schema.js';

export interface ClaudeBackendOptions {
  /** Empty or absent: the CLI's default model. */
  model?: string;
  /** Defaults to resolveClaudeBinary's search: PARLEY_CLAUDE_PATH, `claude` on PATH, this package's own. */
  binPath?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  cwd?: string;
  /** Built-in tools the model may use; none by default (a deliberation role only talks). */
  tools?: string[];
  extraArgs?: string[];
}

export { resolveClaudeBinary } from './claude-path.js';

export const DEFAULT_CLAUDE_TIMEOUT_MS = 300_000;
/** The variables a claude child gets beyond cli-env's fixed list (parley's own, PARLEY_*, never). */
export const CLAUDE_ENV_PREFIXES = ['ANTHROPIC_', 'CLAUDE_', 'DISABLE_', 'AWS_', 'GOOGLE_', 'CLOUD_ML_', 'VERTEX_', 'XDG_'];
const KILL_GRACE_MS = 2_000;

const ClaudeResult = z.looseObject({
  type: z.literal('result'),
  subtype: z.string().optional(),
  is_error: z.boolean().optional(),
  api_error_status: z.number().nullable().optional(),
  result: z.string().optional(),
  session_id: z.string().optional(),
  usage: z
    .looseObject({
      input_tokens: z.number().optional(),
      output_tokens: z.number().optional(),
      cache_read_input_tokens: z.number().optional(),
      cache_creation_input_tokens: z.number().optional(),
    })
    .optional(),
  modelUsage: z.record(z.string(), z.unknown()).optional(),
  structured_output: z.unknown().optional(),
});
type ClaudeResult = z.infer<typeof ClaudeResult>;

export function createClaudeBackend(spec: string, options: ClaudeBackendOptions = {}): Backend {
  const sessionQueues = new Map<string, Promise<unknown>>();
  const backend: Backend = {
    spec,
    send(conversation, prompt, sendOptions = {}) {
      const sessionId = conversation.sessionId;
      if (!sessionId) return runClaude(options, conversation, prompt, sendOptions);
      // Two resumes of one session at once would interleave its transcript: run them in turn.
      const previous = sessionQueues.get(sessionId) ?? Promise.resolve();
      const run = previous.catch(() => undefined).then(() => runClaude(options, conversation, prompt, sendOptions));
      sessionQueues.set(sessionId, run);
      void run.finally(() => {
        if (sessionQueues.get(sessionId) === run) sessionQueues.delete(sessionId);
      }).catch(() => undefined);
      return run;
    },
  };
  return backend;
}

const CLAUDE_FORMS: [string, RegExp, string][] = [
  ['model', /^[A-Za-z0-9][A-Za-z0-9._:[\]-]{0,127}$/, 'a model name (letters, digits, . _ : [ ] -)'],
  ['sessionId', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'a Claude session id (a UUID)'],
];

/** Every value that reaches claude's command line is checked for its exact form first. */
function checkClaudeValues(values: Record<string, string | undefined>): void {
  for (const [key, form, what] of CLAUDE_FORMS) {
    const value = values[key];
    if (value !== undefined && !form.test(value)) throw new BackendError('bad-spec', `refusing to pass ${key} ${JSON.stringify(value).slice(0, 80)} to claude: it must be ${what}`);
  }
}

export function buildClaudeArgs(options: ClaudeBackendOptions, conversation: Conversation, sendOptions: SendOptions = {}): string[] {
  checkClaudeValues({ model: options.model || undefined, sessionId: conversation.sessionId });
  const args = ['-p', '--output-format', 'json'];
  if (options.model) args.push('--model', options.model);
  if (conversation.sessionId) args.push('--resume', conversation.sessionId);
  else if (conversation.system) args.push('--system-prompt', conversation.system);
  args.push('--tools', (options.tools ?? []).join(','));
  // claude offers the model a StructuredOutput tool for this schema and reports its input as the result.
  if (sendOptions.jsonSchema) args.push('--json-schema', JSON.stringify(jsonSchemaOf(sendOptions.jsonSchema.schema)));
  args.push(...(options.extraArgs ?? []));
  return args;
}

/** Without a session, earlier turns travel in the prompt itself. */
export function promptWithHistory(conversation: Conversation, prompt: string): string {
  if (conversation.sessionId || conversation.history.length === 0) return prompt;
  const transcript = conversation.history.map((turn) => `<${turn.role}>\n${turn.content}\n</${turn.role}>`).join('\n');
  return `Earlier turns of this conversation:\n${transcript}\n\nThe new message:\n${prompt}`;
}

async function runClaude(options: ClaudeBackendOptions, conversation: Conversation, prompt: string, sendOptions: SendOptions): Promise<ModelReply> {
  const timeoutMs = sendOptions.timeoutMs ?? options.timeoutMs ?? DEFAULT_CLAUDE_TIMEOUT_MS;
  const parentEnv = options.env ?? process.env;
  const env = passthroughEnv(parentEnv, CLAUDE_ENV_PREFIXES);
  const secrets = secretValues(env);
  const bin = resolveClaudeBinary({ ...(options.binPath !== undefined && { binPath: options.binPath }), env: parentEnv });
  const binName = path.basename(bin).replace(/\.exe$/, '');
  const started = performance.now();
  if (sendOptions.signal?.aborted) throw new BackendError('canceled', `The ${binName} call was canceled before it started.`);

  const child = execa(bin, buildClaudeArgs(options, conversation, sendOptions), {
    input: promptWithHistory(conversation, prompt),
    env,
    extendEnv: false,
    ...(options.cwd !== undefined && { cwd: options.cwd }),
    reject: false,
    detached: true,
    stripFinalNewline: true,
  });
  let stopReason: 'timeout' | 'canceled' | undefined;
  let forceKill: NodeJS.Timeout | undefined;
  const stop = (reason: 'timeout' | 'canceled') => {
    if (stopReason) return;
    stopReason = reason;
    killGroup(child.pid, 'SIGTERM');
    forceKill = setTimeout(() => killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
  };
  const timer = setTimeout(() => stop('timeout'), timeoutMs);
  const onAbort = () => stop('canceled');
  sendOptions.signal?.addEventListener('abort', onAbort, { once: true });
  const result = await child.finally(() => {
    clearTimeout(timer);
    clearTimeout(forceKill);
    sendOptions.signal?.removeEventListener('abort', onAbort);
  });
  const latencyMs = Math.round(performance.now() - started);

  if (stopReason === 'timeout') {
    throw new BackendError('timeout', `${binName} did not finish within ${timeoutMs} ms; it was stopped. Raise timeoutMs or check ANTHROPIC_BASE_URL.`);
  }
  if (stopReason === 'canceled') throw new BackendError('canceled', `The ${binName} call was canceled; the process was stopped.`);
  const stderrTail = scrub(tail(String(result.stderr ?? '')), secrets);
  if ('code' in result && result.code === 'ENOENT') {
    throw new BackendError('not-found', `${bin} was not found: install @anthropic-ai/claude-code, or set PARLEY_CLAUDE_PATH to the claude binary.`);
  }
  const parsed = parseClaudeOutput(String(result.stdout ?? ''));
  const exitCode = result.exitCode;
  if (parsed?.is_error) {
    const status = parsed.api_error_status ?? undefined;
    const message = scrub(parsed.result ?? parsed.subtype ?? 'unknown error', secrets);
    const kind = status === 429 ? 'rate-limited' : 'turn-failed';
    if (/not logged in/i.test(message)) {
      throw new BackendError('turn-failed', `${binName} is not logged in: run \`claude auth login\`, or set ANTHROPIC_API_KEY for the process that runs parley.`, { stderrTail });
    }
    throw new BackendError(kind, `${binName} reported an error: ${message}`, { stderrTail, ...(exitCode !== undefined && { exitCode }), ...(status !== undefined && { status }) });
  }
  if (exitCode !== 0 || !parsed) throw exitError(binName, conversation, stderrTail, exitCode);

  const text = parsed.structured_output !== undefined ? JSON.stringify(parsed.structured_output) : (parsed.result ?? '');
  if (text.trim().length === 0) throw new BackendError('empty-answer', `${binName} returned an empty answer.`, { stderrTail });
  const sessionId = parsed.session_id;
  if (conversation.sessionId && sessionId && sessionId !== conversation.sessionId) {
    throw new BackendError('session-mismatch', `${binName} answered in session ${sessionId}, not the resumed ${conversation.sessionId}.`);
  }
  return {
    text,
    ...(sessionId !== undefined && { sessionId }),
    usage: usageOf(parsed),
    model: Object.keys(parsed.modelUsage ?? {})[0] ?? options.model ?? 'claude',
    latencyMs,
  };
}

function exitError(binName: string, conversation: Conversation, stderrTail: string, exitCode: number | undefined): BackendError {
  const detail = { stderrTail, ...(exitCode !== undefined && { exitCode }) };
  if (/No conversation found|requires a valid session ID/i.test(stderrTail)) {
    return new BackendError('unknown-session', `${binName} has no session ${conversation.sessionId ?? ''}: start a new conversation instead.`, detail);
  }
  if (/not logged in|invalid api key/i.test(stderrTail)) {
    return new BackendError('exit', `${binName} is not authenticated: set ANTHROPIC_API_KEY (or log in) for the process that runs parley.`, detail);
  }
  return new BackendError('exit', `${binName} exited with code ${exitCode ?? 'unknown'}: ${stderrTail || 'no stderr'}`, detail);
}

/** The `result` object from stdout (one JSON line; anything else printed around it is ignored). */
export function parseClaudeOutput(stdout: string): ClaudeResult | undefined {
  const lines = stdout.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('{'));
  for (const line of lines.reverse()) {
    try {
      const parsed = ClaudeResult.safeParse(JSON.parse(line));
      if (parsed.success) return parsed.data;
    } catch {
      // not JSON: keep looking
    }
  }
  return undefined;
}

/** Anthropic counts cache reads apart from input; we report input including them, like OpenAI. */
function usageOf(parsed: ClaudeResult): Usage {
  const usage = parsed.usage ?? {};
  const cached = usage.cache_read_input_tokens ?? 0;
  return {
    inputTokens: (usage.input_tokens ?? 0) + cached + (usage.cache_creation_input_tokens ?? 0),
    cachedInputTokens: cached,
    outputTokens: usage.output_tokens ?? 0,
    reasoningTokens: 0,
  };
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
