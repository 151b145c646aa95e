/**
 * Backend for any OpenAI-compatible chat completions API through the `openai` SDK. Retries with
 * backoff on 429/5xx are the SDK's own (it honours retry-after); the overall deadline and cancel
 * are ours, so a call never outlives `timeoutMs` however many retries the SDK makes.
 */
import { STATUS_CODES } from 'node:http';
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionCreateParamsBase, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { type Usage, zeroUsage } from '../schemas/common.js';
import { type Backend, BackendError, type Conversation, type ModelReply, type SendOptions } from './backend.js';
import { jsonSchemaOf } from './json-schema.js';
import { type ProviderPreset, presetFor } from './presets.js';
import { scopedKey } from './key-scope.js';
import { sentence } from '../schemas/user-facing-error.js';

export interface OpenAiChatOptions {
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  maxRetries?: number;
  baseUrl?: string;
  apiKey?: string;
  /** Stream the reply (SSE); usage then comes from the final chunk. Default false. */
  stream?: boolean;
}

export const DEFAULT_CHAT_TIMEOUT_MS = 180_000;
export const DEFAULT_CHAT_MAX_RETRIES = 3;
/** Sent as the bearer token to servers that need no key: the SDK refuses an empty one. */
const NO_KEY = 'no-key';

export function createOpenAiChatBackend(
  spec: string,
  parsed: { provider: string; model: string; baseUrl?: string },
  options: OpenAiChatOptions = {},
): Backend {
  const preset = presetFor(parsed.provider);
  if (!preset) throw new BackendError('bad-spec', `"${parsed.provider}" is not an OpenAI-compatible provider.`);
  const env = options.env ?? process.env;
  const baseUrl = options.baseUrl ?? parsed.baseUrl ?? preset.baseUrl;
  if (!baseUrl) throw new BackendError('bad-spec', `Model spec "${spec}" needs a base URL.`);
  const { apiKey, withheld } = scopedKey(preset, options.baseUrl === undefined && parsed.baseUrl !== undefined ? { specUrl: parsed.baseUrl } : {}, env, options.apiKey);
  if (!apiKey && preset.keyRequired) {
    throw new BackendError('bad-spec', `Model spec "${spec}" needs an API key: set ${preset.keyEnv} in the environment.`);
  }
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_CHAT_TIMEOUT_MS;
  const client = new OpenAI({
    baseURL: baseUrl,
    apiKey: apiKey || NO_KEY,
    maxRetries: options.maxRetries ?? DEFAULT_CHAT_MAX_RETRIES,
    timeout: defaultTimeoutMs,
    // Only OpenAI itself should pick up an org or project from the environment.
    organization: parsed.provider === 'openai' ? (env.OPENAI_ORG_ID ?? null) : null,
    project: parsed.provider === 'openai' ? (env.OPENAI_PROJECT_ID ?? null) : null,
  });
  const redact = (text: string) => (apiKey ? text.split(apiKey).join('[redacted]') : text);
  // The origin only: a path or query of the base URL is the user's, and may carry a token.
  const where = `${parsed.model} at ${new URL(baseUrl).origin}`;

  return {
    spec,
    async send(conversation: Conversation, prompt: string, sendOptions: SendOptions = {}): Promise<ModelReply> {
      const timeoutMs = sendOptions.timeoutMs ?? defaultTimeoutMs;
      const body = buildRequest(parsed.model, preset, conversation, prompt, sendOptions);
      const deadline = new Deadline(timeoutMs, sendOptions.signal);
      const started = performance.now();
      try {
        const call = options.stream ? streamCompletion(client, body, preset, deadline.signal, timeoutMs) : plainCompletion(client, body, deadline.signal, timeoutMs);
        const { text, usage, model } = await deadline.race(call);
        if (text.trim().length === 0) throw new BackendError('empty-answer', `${where} returned an empty answer.`);
        return { text, usage, model: model || parsed.model, latencyMs: Math.round(performance.now() - started) };
      } catch (error) {
        throw mapError(error, deadline, where, timeoutMs, redact, withheld);
      } finally {
        deadline.dispose();
      }
    },
  };
}

function buildRequest(model: string, preset: ProviderPreset, conversation: Conversation, prompt: string, options: SendOptions): ChatCompletionCreateParamsBase {
  const messages: ChatCompletionMessageParam[] = [];
  if (conversation.system) messages.push({ role: 'system', content: conversation.system });
  for (const turn of conversation.history) messages.push({ role: turn.role, content: turn.content });
  messages.push({ role: 'user', content: prompt });
  const body: ChatCompletionCreateParamsBase = { model, messages };
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.seed !== undefined && preset.supportsSeed) body.seed = options.seed;
  if (options.jsonSchema && preset.supportsJsonSchema) {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: sanitizeSchemaName(options.jsonSchema.name), schema: jsonSchemaOf(options.jsonSchema.schema), strict: false },
    };
  }
  return body;
}

function sanitizeSchemaName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'reply';
}

interface Completion {
  text: string;
  usage: Usage;
  model: string;
}

async function plainCompletion(client: OpenAI, body: ChatCompletionCreateParamsBase, signal: AbortSignal, timeoutMs: number): Promise<Completion> {
  const response = await client.chat.completions.create({ ...body, stream: false }, { signal, timeout: timeoutMs });
  return { text: response.choices[0]?.message.content ?? '', usage: usageOf(response.usage), model: response.model };
}

async function streamCompletion(
  client: OpenAI,
  body: ChatCompletionCreateParamsBase,
  preset: ProviderPreset,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Completion> {
  const stream = await client.chat.completions.create(
    { ...body, stream: true, ...(preset.supportsStreamUsage && { stream_options: { include_usage: true } }) },
    { signal, timeout: timeoutMs },
  );
  let text = '';
  let usage = zeroUsage();
  let model = '';
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? '';
    if (chunk.usage) usage = usageOf(chunk.usage);
    if (chunk.model) model = chunk.model;
  }
  return { text, usage, model };
}

function usageOf(usage: OpenAI.CompletionUsage | null | undefined): Usage {
  if (!usage) return zeroUsage();
  return {
    inputTokens: usage.prompt_tokens ?? 0,
    cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

/** Our overall deadline plus the caller's cancel, remembering which one fired. */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onCallerAbort = () => this.abort('canceled');
  reason: 'timeout' | 'canceled' | undefined;

  constructor(
    timeoutMs: number,
    private readonly callerSignal?: AbortSignal,
  ) {
    this.timer = setTimeout(() => this.abort('timeout'), timeoutMs);
    if (callerSignal?.aborted) this.abort('canceled');
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  private abort(reason: 'timeout' | 'canceled'): void {
    this.reason ??= reason;
    this.controller.abort();
  }

  /** Settles as soon as the deadline fires, even while the SDK sleeps between retries. */
  race<T>(work: Promise<T>): Promise<T> {
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(new APIUserAbortError());
      if (this.controller.signal.aborted) fail();
      else this.controller.signal.addEventListener('abort', fail, { once: true });
    });
    work.catch(() => undefined);
    return Promise.race([work, aborted]);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }
}

function mapError(error: unknown, deadline: Deadline, where: string, timeoutMs: number, redact: (text: string) => string, withheld?: string): BackendError {
  if (error instanceof BackendError) return error;
  if (deadline.reason === 'canceled') return new BackendError('canceled', `The call to ${where} was canceled.`);
  if (deadline.reason === 'timeout' || error instanceof APIConnectionTimeoutError) {
    return new BackendError('timeout', `${where} did not answer within ${timeoutMs} ms; raise timeoutMs or check the server.`);
  }
  if (error instanceof APIUserAbortError) return new BackendError('canceled', `The call to ${where} was canceled.`);
  if (error instanceof APIConnectionError) {
    return new BackendError('http', redact(`Could not reach ${where}: ${sentence(error.message)} Is the server running and the base URL right?`));
  }
  if (error instanceof APIError) {
    const status = error.status ?? 0;
    // The SDK's message opens with the status ("404 model m not found", "404 status code (no body)"), and a server's own may too ("404 page not found").
    const detail = redact(error.message).replace(new RegExp(`^(${status}\\b\\s*)+`), '').replace(/^status code \(no body\)$/, '');
    const said = detail ? `: ${sentence(detail)}` : ' with no body.';
    const answered = `HTTP ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;
    if (status === 429) return new BackendError('rate-limited', `${where} is rate limiting (${answered}) and retries ran out${said}`, { status });
    const hint = status === 401 || status === 403 ? (withheld ? ` No key was sent: ${withheld}.` : ' Check the API key.') : status === 404 ? ' Check the model name and base URL.' : '';
    return new BackendError('http', `${where} answered ${answered}${said}${hint}`, { status });
  }
  return new BackendError('http', redact(`Calling ${where} failed: ${error instanceof Error ? error.message : String(error)}`));
}
