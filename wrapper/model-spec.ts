import { createCodexBackend } from './codex/index.js';
import type { Backend } from './backend.js';
import { createClaudeBackend } from './claude-cli.js';
import { createOpenAiChatBackend } from './openai-chat.js';
import { parseModelSpec } from './parse-spec.js';
import { rememberSecret, rememberSecretsOf } from '../schemas/secrets.js';

export { parseModelSpec, type ModelSpec } from './parse-spec.js';

export interface BackendOptions {
  /** Where keys and CLI settings come from; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  maxRetries?: number;
  /** Overrides the preset's base URL (OpenAI-compatible providers only). */
  baseUrl?: string;
  /** Overrides the key read from env (OpenAI-compatible providers only). */
  apiKey?: string;
  /** Path of the CLI binary (codex, claude). */
  binPath?: string;
  cwd?: string;
  /** Folders a Codex backend's commands may not read (besides Codex's own home). */
  hidden?: string[];
  /** Stream chat replies (OpenAI-compatible providers only); default false. */
  stream?: boolean;
}

/** One backend for any role, from one spec string. */
export function createBackend(spec: string, options: BackendOptions = {}): Backend {
  const parsed = parseModelSpec(spec);
  if (options.env) rememberSecretsOf(options.env);
  rememberSecret(options.apiKey);
  if (parsed.provider === 'codex') {
    return createCodexBackend(parsed.model ? `codex:${parsed.model}` : 'codex', {
      ...(options.binPath !== undefined && { codexPath: options.binPath }),
      ...(options.env !== undefined && { env: options.env }),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.cwd !== undefined && { cwd: options.cwd }),
      ...(options.hidden !== undefined && { hidden: options.hidden }),
    });
  }
  if (parsed.provider === 'claude') {
    return createClaudeBackend(spec, {
      model: parsed.model,
      ...(options.binPath !== undefined && { binPath: options.binPath }),
      ...(options.env !== undefined && { env: options.env }),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.cwd !== undefined && { cwd: options.cwd }),
    });
  }
  return createOpenAiChatBackend(spec, parsed, options);
}
