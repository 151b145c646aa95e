import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeliberationState } from '../schemas/argumentation.js';
import type { Usage } from '../schemas/common.js';
import { buildConsulteePrompt, consultPrecheck, nextConsulteePrompt, resentPrompt, type PromptKind } from '../protocols/argumentation/index.js';
import { BackendError } from '../wrapper/backend.js';
import type { CodexCallOptions, CodexCallResult } from '../wrapper/codex/index.js';
// The light part of the wrapper: the rest loads with the first consult.
import { checkCodexCall } from '../wrapper/codex/hidden-paths.js';
import { eventLine } from '../wrapper/codex/events.js';
import { serverRefusal, throwIfRefused, type Deliberations, type MoveOutcome } from './deliberations.js';
import type { JobManager } from './jobs.js';
import { keptInput } from './audit-input.js';
import { CONSULTEE, refuseUnreadyModels, type ModelChecker } from './model-checks.js';
import { sentence } from '../schemas/user-facing-error.js';

export interface ConsultSettings {
  cwd?: string;
  model?: string;
  reasoningEffort?: string;
  sandbox?: CodexCallOptions['sandbox'];
}

/** One Codex turn of a consult (a format failure's retry is a second turn of the same consult). */
export interface ConsultTurn {
  kind: PromptKind;
  sessionId: string;
  usage: Usage;
  promptBytes: number;
  durationMs: number;
  recovered: boolean;
}

export interface ConsultOutcome {
  turns: ConsultTurn[];
  /** The last reply, verbatim (the audit log has every one). */
  reply: string;
  moved: MoveOutcome;
  /** Effects of every turn's reply_record, in order. */
  effects: string[];
}

type RunCodex = (options: CodexCallOptions) => Promise<CodexCallResult>;

/** What the orchestrator can do after a consult failed (a transient failure was already sent again once, unless Codex had answered). */
export function afterFailedConsult(cause: unknown): string {
  if (!(cause instanceof BackendError) || !cause.detail.transient) return 'fix the cause and call delib_consult again';
  return cause.detail.answered ? 'call delib_consult to ask Codex again' : 'such a failure usually passes: call delib_consult again in a minute';
}

const NO_USAGE: Usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };

/**
 * One consultee call for a deliberation: picks the prompt (first, next, retry, recovery), sends it
 * through the Codex wrapper (resuming the session), audits prompt and raw reply, and records the
 * reply as the engine's reply_record move. A format failure is retried at once within the same
 * consult (the protocol's retry prompt) when the engine allows another turn, so it costs Codex a
 * turn but the orchestrator no call. Whether a consult may run at all is the engine's consultPrecheck.
 * Runs as a job so no tool call blocks past a timeout.
 */
export class ConsultService {
  private emptyDir?: Promise<string>;
  /** Settings given once (cwd 'empty', a model) hold for the deliberation's later consults in this process. */
  private readonly settings = new Map<string, ConsultSettings>();
  /** The prompt whose sending failed last, per deliberation: sent again to the same session, it says so. */
  private readonly unanswered = new Map<string, { prompt: string; failure: string }>();

  /**
   * `hidden`: folders Codex's commands may not read (parley's state: other deliberations' questions,
   * material and audit logs); the wrapper adds Codex's own home.
   */
  constructor(private readonly deps: { deliberations: Deliberations; jobs: JobManager; env: NodeJS.ProcessEnv; hidden: string[]; runCodex?: RunCodex; checkModels: ModelChecker }) {}

  jobId(deliberationId: string): string {
    return `consult-${deliberationId}`;
  }

  running(deliberationId: string): boolean {
    return this.deps.jobs.get(this.jobId(deliberationId))?.status === 'running';
  }

  /** Starts a consult, or returns the running one; refuses when the protocol does not allow one now. */
  async start(deliberationId: string, settings: ConsultSettings): Promise<string> {
    const id = this.jobId(deliberationId);
    if (this.running(deliberationId)) return id;
    const { state } = await this.deps.deliberations.get(deliberationId);
    throwIfRefused(consultPrecheck(state));
    // A codex that can only fail (not logged in, not installed) is named now, not after a wait.
    await refuseUnreadyModels(this.deps.checkModels, [CONSULTEE], 'the consult', state);
    const given = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
    const merged = { ...this.settings.get(deliberationId), ...given };
    // Checked before it is kept: a refused setting must not stick to the next consult.
    this.check(merged, state);
    this.settings.set(deliberationId, merged);
    this.deps.jobs.start(id, 'consult', (signal, progress) => this.consult(state, merged, signal, (message) => progress({ done: 0, message })));
    return id;
  }

  /** Records a reply the orchestrator obtained itself, as if Codex had given it. */
  async recordOwn(deliberationId: string, reply: string): Promise<ConsultOutcome> {
    if (this.running(deliberationId)) {
      const { state } = await this.deps.deliberations.get(deliberationId);
      throw serverRefusal(state, 'a consult is running for this deliberation; wait for it (delib_consult) or cancel it first', 'consult-running');
    }
    // reply_record asks consultPrecheck itself: a reply the deliberation cannot take is refused there.
    const moved = await this.deps.deliberations.apply(deliberationId, 'reply_record', { text: reply });
    return { turns: [], reply, moved, effects: moved.effects };
  }

  /** The finished consult's outcome once (later calls start a new consult); a failure keeps its error object. */
  takeFinished(deliberationId: string): ConsultOutcome | { error: string; cause?: unknown } | undefined {
    const taken = this.deps.jobs.takeFinished<ConsultOutcome>(this.jobId(deliberationId));
    if (!taken) return undefined;
    return taken.ok ? taken.result : { error: taken.error, cause: taken.cause };
  }

  private async consult(initial: DeliberationState, settings: ConsultSettings, signal: AbortSignal, say: (m: string) => void): Promise<ConsultOutcome> {
    const options = await this.options(settings, signal, say);
    const turns: ConsultTurn[] = [];
    const effects: string[] = [];
    let state = initial;
    for (;;) {
      const turn = await this.turn(state, options, say);
      turns.push(turn.meta);
      effects.push(...turn.moved.effects);
      state = turn.moved.state;
      // A format failure is retried at once when the engine allows another turn (not in quick mode once its two are spent).
      const retry = turns.length === 1 && !state.replyRecorded && !consultPrecheck(state);
      if (!retry) return { turns, reply: turn.reply, moved: turn.moved, effects };
      say('format failure: sending the retry prompt');
    }
  }

  private async turn(state: DeliberationState, options: Omit<CodexCallOptions, 'prompt'>, say: (m: string) => void): Promise<{ meta: ConsultTurn; reply: string; moved: MoveOutcome }> {
    const audit = state.mode === 'quick' ? undefined : this.deps.deliberations.store.auditLog(state.id);
    let { kind, prompt } = nextConsulteePrompt(state);
    const unsent = prompt;
    const failed = this.unanswered.get(state.id);
    if (failed?.prompt === unsent && state.consulteeSessionId) prompt = resentPrompt(prompt, failed.failure);
    await audit?.append({ type: 'consult-request', iteration: state.n, kind, prompt, sessionId: state.consulteeSessionId ?? null });
    let result: CodexCallResult;
    let recovered = false;
    try {
      const resume = kind === 'first' ? undefined : state.consulteeSessionId;
      // After a restart the wrapper has no memory of the thread's usage: the state does.
      result = await this.call({ ...options, prompt, sessionId: resume, ...(resume && state.consulteeCumulativeUsage ? { previousCumulativeUsage: state.consulteeCumulativeUsage } : {}) });
    } catch (error) {
      if (!(error instanceof BackendError) || !['unknown-session', 'session-mismatch'].includes(error.kind)) {
        await audit?.append({ type: 'consult-error', iteration: state.n, kind: error instanceof BackendError ? error.kind : 'bug', message: (error as Error).message });
        if (error instanceof BackendError && error.kind === 'empty-answer') {
          const moved = await this.deps.deliberations.apply(state.id, 'reply_record', { text: '', formatFailure: 'the consultee returned an empty answer' });
          return { meta: { kind, sessionId: state.consulteeSessionId ?? '', usage: NO_USAGE, promptBytes: Buffer.byteLength(prompt), durationMs: 0, recovered }, reply: '', moved };
        }
        this.unanswered.set(state.id, { prompt: unsent, failure: error instanceof BackendError ? error.kind : 'error' });
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
    this.unanswered.delete(state.id);
    const input = {
      text: result.answer,
      ...(result.sessionId && result.sessionId !== state.consulteeSessionId ? { sessionId: result.sessionId } : {}),
      ...(result.cumulativeUsage ? { cumulativeUsage: result.cumulativeUsage } : {}),
    };
    await audit?.append({
      type: 'consult-reply',
      iteration: state.n,
      kind,
      sessionId: result.sessionId,
      // A reply the deliberation will refuse (20 MB of it, say) is kept as its size, hash and first characters.
      reply: this.deps.deliberations.accepts(state, 'reply_record', input) ? result.answer : keptInput(result.answer),
      usage: result.usage,
      cumulativeUsage: result.cumulativeUsage ?? null,
      durationMs: Math.round(result.durationMs),
      ...(result.retriedAfter ? { retriedAfter: result.retriedAfter } : {}),
      commands: result.commands,
      warnings: result.warnings,
      promptBytes: Buffer.byteLength(prompt),
    });
    const moved = await this.deps.deliberations.apply(state.id, 'reply_record', input);
    const meta = { kind, sessionId: result.sessionId, usage: result.usage, promptBytes: Buffer.byteLength(prompt), durationMs: Math.round(result.durationMs), recovered };
    return { meta, reply: result.answer, moved };
  }

  private async call(options: CodexCallOptions): Promise<CodexCallResult> {
    const run = this.deps.runCodex ?? (await import('../wrapper/codex/index.js')).runCodex;
    return run(options);
  }

  /** The settings as Codex would get them, checked by the wrapper's own rules; a refusal names the bad one. */
  private check(settings: ConsultSettings, state: DeliberationState): void {
    const env = this.deps.env;
    const cwd = settings.cwd ?? env.PARLEY_CONSULT_CWD;
    try {
      checkCodexCall({
        env,
        hidden: this.deps.hidden,
        // 'empty' is a new folder in the temp folder; no cwd at all is this process's own.
        ...(cwd ? { cwd: cwd === 'empty' ? tmpdir() : cwd } : {}),
        ...(settings.sandbox ? { sandbox: settings.sandbox } : {}),
        ...(settings.model ?? env.PARLEY_CODEX_MODEL ? { model: settings.model ?? env.PARLEY_CODEX_MODEL } : {}),
        ...(settings.reasoningEffort ?? env.PARLEY_CODEX_REASONING ? { reasoningEffort: settings.reasoningEffort ?? env.PARLEY_CODEX_REASONING } : {}),
      });
    } catch (error) {
      if (!(error instanceof BackendError)) throw error;
      throw serverRefusal(state, `${sentence(error.message)} Nothing was sent: the state is unchanged and the next delib_consult uses the earlier settings`, 'bad-consult-setting');
    }
  }

  private async options(settings: ConsultSettings, signal: AbortSignal, say: (m: string) => void): Promise<Omit<CodexCallOptions, 'prompt'>> {
    const env = this.deps.env;
    let cwd = settings.cwd ?? env.PARLEY_CONSULT_CWD;
    if (cwd === 'empty') {
      // Abstract questions: an empty folder spares Codex the scan of a codebase (the seed's -C /tmp).
      // A private empty folder per server process, outside the state folder (quick mode writes nothing there).
      this.emptyDir ??= mkdtemp(join(tmpdir(), 'parley-empty-')).then((dir) => {
        process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
        return dir;
      });
      cwd = await this.emptyDir;
    }
    const timeout = Number(env.PARLEY_CONSULT_TIMEOUT_MS);
    return {
      sandbox: settings.sandbox ?? 'read-only',
      hidden: this.deps.hidden,
      ...(cwd ? { cwd } : {}),
      ...(settings.model ?? env.PARLEY_CODEX_MODEL ? { model: settings.model ?? env.PARLEY_CODEX_MODEL } : {}),
      ...(settings.reasoningEffort ?? env.PARLEY_CODEX_REASONING ? { reasoningEffort: settings.reasoningEffort ?? env.PARLEY_CODEX_REASONING } : {}),
      ...(Number.isFinite(timeout) && timeout > 0 ? { timeoutMs: timeout } : {}),
      signal,
      onEvent: (event) => say(`codex: ${eventLine(event)}`),
    };
  }
}
