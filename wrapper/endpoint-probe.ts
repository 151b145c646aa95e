/**
 * Is anything listening at a model endpoint: one GET of <base>/models, no credentials, a short
 * timeout. For `parley doctor` and for the checks made before a run or a consult (readiness.ts).
 */

export const ENDPOINT_TIMEOUT_MS = 3_000;

export interface EndpointProbe {
  /** The HTTP status of any answer (401 and 404 count: something is listening). */
  status?: number;
  error?: string;
  /** Nothing listens there, or the host does not exist: a clear no, unlike a slow answer. */
  definite?: boolean;
}

export async function probeEndpoint(url: string, timeoutMs = ENDPOINT_TIMEOUT_MS): Promise<EndpointProbe> {
  try {
    const response = await fetch(`${url.replace(/\/+$/, '')}/models`, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return { status: response.status };
  } catch (error) {
    return networkError(error, timeoutMs);
  }
}

function networkError(error: unknown, timeoutMs: number): EndpointProbe {
  const err = error as { name?: string; cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return { error: `no answer within ${timeoutMs / 1000} s` };
  const code = err.cause?.code;
  if (code === 'ECONNREFUSED') return { error: 'connection refused', definite: true };
  if (code === 'ENOTFOUND') return { error: 'host name not found', definite: true };
  if (code === 'EAI_AGAIN') return { error: 'host name not found' };
  return { error: code ?? err.cause?.message ?? (error instanceof Error ? error.message : String(error)) };
}

const START_HINTS: Record<string, string> = {
  ollama: 'start Ollama (`ollama serve`)',
  vllm: 'start vLLM (`vllm serve <model>`)',
  lmstudio: "start LM Studio's local server",
};

/** What to do about an endpoint that does not answer; `where` names where the URL came from (a spec, a variable). */
export function unreachableFix(url: string, provider: string | undefined, where: string): string {
  const start = (provider && START_HINTS[provider]) ?? `start the server at ${url}`;
  const hosted = /^https:/.test(url) && !/^https:\/\/(127\.|localhost)/.test(url);
  return hosted ? `check this machine's network connection (and proxy) to ${new URL(url).host}, or correct ${where}` : `${start}, or correct ${where}`;
}
