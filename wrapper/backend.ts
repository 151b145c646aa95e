import type { z } from 'zod';
import type { Usage } from '../schemas/common.js';
import { UserFacingError } from '../schemas/user-facing-error.js';
import { redact } from '../schemas/secrets.js';

/**
 * One interface for every model role (consultee, arbiter, dialogic model, debater, judge).
 * Stateless APIs replay `history`; session-based CLIs (codex, claude) resume `sessionId` and
 * ignore `history` when a session exists.
 */
export interface Conversation {
  system?: string;
  history: ConversationTurn[];
  sessionId?: string;
}

export interface ConversationTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface SendOptions {
  temperature?: number;
  seed?: number;
  /** Ask for JSON matching this schema where the backend supports it. */
  jsonSchema?: { name: string; schema: z.ZodType };
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface ModelReply {
  text: string;
  sessionId?: string;
  usage: Usage;
  /** The model name the backend actually used, as reported by it when it reports one. */
  model: string;
  latencyMs: number;
}

export interface Backend {
  /** The spec string this backend was made from, e.g. `openai:gpt-4.1` or `codex:gpt-5.2`. */
  readonly spec: string;
  send(conversation: Conversation, prompt: string, options?: SendOptions): Promise<ModelReply>;
}

/** The one error taxonomy for model calls; `kind` is stable, `message` says what to do. */
export type BackendErrorKind =
  | 'not-found'
  | 'timeout'
  | 'unreachable'
  | 'canceled'
  | 'exit'
  | 'turn-failed'
  | 'empty-answer'
  | 'session-mismatch'
  | 'session-busy'
  | 'unknown-session'
  | 'http'
  | 'rate-limited'
  | 'bad-spec';

/**
 * `transient`: the failure may pass by itself (a stream cut between Codex and the provider, an
 * overloaded provider); `answered`: the model had answered before it, so sending the call again
 * would bill that answer twice.
 */
export interface BackendErrorDetail {
  stderrTail?: string;
  exitCode?: number;
  status?: number;
  transient?: boolean;
  answered?: boolean;
}

export class BackendError extends UserFacingError {
  readonly detail: BackendErrorDetail;

  constructor(
    readonly kind: BackendErrorKind,
    message: string,
    detail: BackendErrorDetail = {},
  ) {
    super(message, { code: kind });
    this.detail = detail.stderrTail === undefined ? detail : { ...detail, stderrTail: redact(detail.stderrTail) };
  }
}
