import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeliberationState } from '../schemas/argumentation.js';
import type { Usage } from '../schemas/common.js';
import { buildConsulteePrompt, type PromptKind } from '../protocols/argumentation/index.js';
import { BackendError } from '../wrapper/backend.js';
import type { CodexCallOptions, CodexCallResult } from '../wrapper/codex/index.js';
import type { Deliberations, MoveOutcome } from './deliberations.js';
import type { JobManager } from './jobs.js';
import { ToolRefusal } from './tool-kit.js';

export interface ConsultSettings {
  cwd?: string;
  model?: string;
  reasoningEffort?: string;
  sandbox?: CodexCallOptions['sandbox'];
}

export interface ConsultOutcome {
  kind: PromptKind;
  reply: string;
  sessionId: string;
  usage: Usage;
  promptBytes: number;
  durationMs: number;
  recovered: boolean;
  moved: MoveOutcome;
}

type RunCodex = (options: CodexCallOptions) => Promise<CodexCallResult>;

/**
 * One consultee call for a deliberation: picks the prompt (first, next, retry, recovery), sends it
 * through the Codex wrapper (resuming the session), audits prompt and raw reply, and records the
 * reply as the engine's reply_record move. Runs as a job so no tool call blocks past a timeout.
 */
export class ConsultService {
  private emptyDir?: Promise<string>;

  constructor(
    private readonly deps: { deliberations: Deliberations; jobs: JobManager; env: NodeJS.ProcessEnv; home: string; runCodex?: RunCodex },
  ) {}

  jobId(deliberationId: string): string {
    return `consult-${deliberationId}`;
  }

  /** Starts a consult, or returns the running one; refuses when the protocol does not allow one now. */
  async start(deliberationId: string, settings: ConsultSettings): Promise<string> {
    const id = this.jobId(deliberationId);
    if (this.deps.jobs.get(id)?.status === 'running') return id;
    const { state } = await this.deps.deliberations.get(deliberationId);
    if (state.status !== 'active') throw new ToolRefusal(`the deliberation terminated (${state.termination?.reason}); call delib_synthesize`, 'deliberation-terminated', ['delib_synthesize']);
    if (state.replyRecorded) {
      throw new ToolRefusal(`iteration ${state.n} already has its reply; evaluate it, then iteration_advance before the next consult`, 'one-reply-per-iteration', ['point_triage', 'point_evaluate', 'challenge_resolve', 'iteration_advance']);
    }
    this.deps.jobs.start(id, 'consult', (signal, progress) => this.consult(state, settings, signal, (message) => progress({ done: 0, message })));
    return id;
  }

  /** The finished consult's outcome once (later calls start a new consult). */
  takeFinished(deliberationId: string): ConsultOutcome | { error: string } | undefined {
    const taken = this.deps.jobs.takeFinished<ConsultOutcome>(this.jobId(deliberationId));
    if (!taken) return undefined;
    return taken.ok ? taken.result : { error: taken.error };
  }

  private async consult(state: DeliberationState, settings: ConsultSettings, signal: AbortSignal, say: (m: string) => void): Promise<ConsultOutcome> {
    const audit = state.mode === 'quick' ? undefined : this.deps.deliberations.store.auditLog(state.id);
    let kind = promptKind(state);
    let prompt = consulteePrompt(state, kind);
    const options = await this.options(state, settings, signal, say);
    await audit?.append({ type: 'consult-request', iteration: state.n, kind, prompt, sessionId: state.consulteeSessionId ?? null });
    let result: CodexCallResult;
    let recovered = false;
    try {
      result = await this.call({ ...options, prompt, sessionId: kind === 'first' ? undefined : state.consulteeSessionId });
    } catch (error) {
      if (!(error instanceof BackendError) || !['unknown-session', 'session-mismatch'].includes(error.kind)) {
        await audit?.append({ type: 'consult-error', iteration: state.n, kind: error instanceof BackendError ? error.kind : 'bug', message: (error as Error).message });
        if (error instanceof BackendError && error.kind === 'empty-answer') return this.record(state, kind, '', 'the consultee returned an empty answer', undefined, 0, false);
        throw error;
      }
      // The session is gone: a fresh one, seeded with the whole state, continues at the same n.
      recovered = true;
      kind = 'recovery';
      prompt = buildConsulteePrompt(state, kind);
      say('consultee session lost: recovering in a fresh session');
      await audit?.append({ type: 'consult-recovery', iteration: state.n, reason: error.message, prompt });
      result = await this.call({ ...options, prompt, sessionId: undefined });
    }
    await audit?.append({
      type: 'consult-reply',
      iteration: state.n,
      kind,
      sessionId: result.sessionId,
      reply: result.answer,
      usage: result.usage,
      cumulativeUsage: result.cumulativeUsage ?? null,
      durationMs: Math.round(result.durationMs),
      commands: result.commands,
      warnings: result.warnings,
      promptBytes: Buffer.byteLength(prompt),
    });
    const outcome = await this.record(state, kind, result.answer, undefined, result.sessionId, Buffer.byteLength(prompt), recovered, result);
    return outcome;
  }

  private async record(
    state: DeliberationState,
    kind: PromptKind,
    reply: string,
    formatFailure: string | undefined,
    sessionId: string | undefined,
    promptBytes: number,
    recovered: boolean,
    result?: CodexCallResult,
  ): Promise<ConsultOutcome> {
    const input = { text: reply, ...(sessionId && sessionId !== state.consulteeSessionId ? { sessionId } : {}), ...(formatFailure ? { formatFailure } : {}) };
    const moved = await this.deps.deliberations.apply(state.id, 'reply_record', input);
    return {
      kind,
      reply,
      sessionId: sessionId ?? state.consulteeSessionId ?? '',
      usage: result?.usage ?? { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 },
      promptBytes,
      durationMs: Math.round(result?.durationMs ?? 0),
      recovered,
      moved,
    };
  }

  private async call(options: CodexCallOptions): Promise<CodexCallResult> {
    const run = this.deps.runCodex ?? (await import('../wrapper/codex/index.js')).runCodex;
    return run(options);
  }

  private async options(state: DeliberationState, settings: ConsultSettings, signal: AbortSignal, say: (m: string) => void): Promise<Omit<CodexCallOptions, 'prompt'>> {
    const env = this.deps.env;
    let cwd = settings.cwd ?? env.PARLEY_CONSULT_CWD;
    if (cwd === 'empty') {
      // Abstract questions: an empty folder spares Codex the scan of a codebase (the seed's -C /tmp).
      // A private empty folder per server process, outside the state folder (quick mode writes nothing there).
      this.emptyDir ??= mkdtemp(join(tmpdir(), 'parley-empty-'));
      cwd = await this.emptyDir;
    }
    const timeout = Number(env.PARLEY_CONSULT_TIMEOUT_MS);
    return {
      sandbox: settings.sandbox ?? 'read-only',
      ...(cwd ? { cwd } : {}),
      ...(settings.model ?? env.PARLEY_CODEX_MODEL ? { model: settings.model ?? env.PARLEY_CODEX_MODEL } : {}),
      ...(settings.reasoningEffort ?? env.PARLEY_CODEX_REASONING ? { reasoningEffort: settings.reasoningEffort ?? env.PARLEY_CODEX_REASONING } : {}),
      ...(Number.isFinite(timeout) && timeout > 0 ? { timeoutMs: timeout } : {}),
      signal,
      onEvent: (event) => say(`codex: ${event.type}`),
    };
  }
}

export function promptKind(state: DeliberationState): PromptKind {
  const retrying = state.counters.consecutiveFormatFailures > 0;
  if (!state.consulteeSessionId) {
    if (state.n === 1 && state.points.length === 0) return retrying ? 'retry' : 'first';
    return 'recovery';
  }
  return retrying ? 'retry' : 'next';
}

/**
 * A retry of the very first call may have no session to resume (an empty answer leaves none on
 * record): it then goes to a fresh session, so it carries the whole first prompt after its headline.
 */
function consulteePrompt(state: DeliberationState, kind: PromptKind): string {
  if (kind !== 'retry' || state.consulteeSessionId) return buildConsulteePrompt(state, kind);
  const headline = buildConsulteePrompt(state, 'retry').split('\n\n', 1)[0];
  return `${headline}\n\n${buildConsulteePrompt(state, 'first')}`;
}
