import { createHash } from 'node:crypto';
import pLimit, { type LimitFunction } from 'p-limit';
import type { Usage } from '../../schemas/common.js';
import { BackendError, type Backend, type Conversation, type SendOptions } from '../../wrapper/backend.js';
import { createBackend } from '../../wrapper/model-spec.js';
import { modelOfSpec } from './pricing.js';

export const DEFAULT_CALLS_PER_BACKEND = 8;

export interface SweepBackendOptions {
  /** Calls in flight per backend spec: keyed by spec, model name, provider, or `default`. */
  perBackend?: Record<string, number>;
  retry?: { rateLimited: number; baseMs: number };
  seedPerRun?: boolean;
  /** How backends are made (tests and benchmarks may wrap the real ones); default createBackend. */
  create?: (spec: string) => Backend;
  /** Each reply's usage as it arrives, for live totals. */
  onUsage?: (usage: Usage, spec: string) => void;
  /** Each rate-limited call that is about to be retried. */
  onRateLimited?: (spec: string, retry: number) => void;
}

/** A sampling seed per run, the same on every machine (31 bits: every provider accepts it). */
export function seedForRun(runId: string): number {
  return Number.parseInt(createHash('sha256').update(runId).digest('hex').slice(0, 8), 16) & 0x7fffffff;
}

/**
 * The backends of one sweep: one instance per spec, one call limit per spec shared by every run,
 * and a slower retry for rate limits after the backend's own retries ran out.
 */
export class SweepBackends {
  private readonly backends = new Map<string, Backend>();
  private readonly limits = new Map<string, LimitFunction>();

  constructor(private readonly options: SweepBackendOptions = {}) {}

  /** The `backendFor` a run gets: same shared backends, plus this run's seed. */
  forRun(runId: string): (spec: string) => Backend {
    const seed = this.options.seedPerRun === false ? undefined : seedForRun(runId);
    return (spec) => {
      const backend = this.backend(spec);
      const limit = this.limitFor(spec);
      return {
        spec: backend.spec,
        send: (conversation: Conversation, prompt: string, options: SendOptions = {}) =>
          limit(() => this.sendRetrying(backend, conversation, prompt, seed === undefined || options.seed !== undefined ? options : { ...options, seed })),
      };
    };
  }

  /** The limit that applies to a spec (exposed for reports and tests). */
  callLimitOf(spec: string): number {
    const table = this.options.perBackend ?? {};
    const { provider, model } = modelOfSpec(spec);
    for (const key of [spec, model, provider, 'default']) if (key && Object.hasOwn(table, key)) return table[key]!;
    return DEFAULT_CALLS_PER_BACKEND;
  }

  private backend(spec: string): Backend {
    let backend = this.backends.get(spec);
    if (!backend) {
      backend = (this.options.create ?? createBackend)(spec);
      this.backends.set(spec, backend);
    }
    return backend;
  }

  private limitFor(spec: string): LimitFunction {
    let limit = this.limits.get(spec);
    if (!limit) {
      limit = pLimit(this.callLimitOf(spec));
      this.limits.set(spec, limit);
    }
    return limit;
  }

  private async sendRetrying(backend: Backend, conversation: Conversation, prompt: string, options: SendOptions) {
    const retries = this.options.retry?.rateLimited ?? 4;
    const baseMs = this.options.retry?.baseMs ?? 5000;
    for (let retry = 0; ; retry += 1) {
      try {
        const reply = await backend.send(conversation, prompt, options);
        this.options.onUsage?.(reply.usage, backend.spec);
        return reply;
      } catch (error) {
        if (!(error instanceof BackendError) || error.kind !== 'rate-limited' || retry >= retries || options.signal?.aborted) throw error;
        this.options.onRateLimited?.(backend.spec, retry + 1);
        // Jitter keeps many runs that hit the same limit from retrying in lockstep.
        await pause(baseMs * 2 ** retry * (0.5 + Math.random() / 2), options.signal);
      }
    }
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
