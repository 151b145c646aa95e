import { zeroUsage, type Usage } from '../../schemas/common.js';
import type { CodexRawUsage } from './events.js';

/**
 * In-process state per Codex thread: a queue so two resumes of one thread never overlap (Codex
 * refuses the second with "already has an active writer"), and the last cumulative usage, because
 * Codex reports usage cumulated over the thread on resume.
 */
const tails = new Map<string, Promise<unknown>>();
const lastCumulative = new Map<string, Usage>();

export const sessionKey = (codexHome: string | undefined, sessionId: string): string => `${codexHome ?? '~/.codex'}\u0000${sessionId}`;

export function withSessionQueue<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
}

export const rememberCumulative = (key: string, usage: Usage): void => void lastCumulative.set(key, usage);
export const recalledCumulative = (key: string): Usage | undefined => lastCumulative.get(key);

export function fromRawUsage(raw: CodexRawUsage): Usage {
  return {
    inputTokens: raw.input_tokens,
    cachedInputTokens: raw.cached_input_tokens,
    outputTokens: raw.output_tokens,
    reasoningTokens: raw.reasoning_output_tokens,
  };
}

/** current - previous, field by field, never below zero. */
export function usageDifference(current: Usage, previous: Usage | undefined): Usage {
  const base = previous ?? zeroUsage();
  return {
    inputTokens: Math.max(0, current.inputTokens - base.inputTokens),
    cachedInputTokens: Math.max(0, current.cachedInputTokens - base.cachedInputTokens),
    outputTokens: Math.max(0, current.outputTokens - base.outputTokens),
    reasoningTokens: Math.max(0, current.reasoningTokens - base.reasoningTokens),
  };
}
