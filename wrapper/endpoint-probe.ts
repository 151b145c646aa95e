import { closest } from 'fastest-levenshtein';

/**
 * Is anything listening at a model endpoint, and which models does it list: one GET of <base>/models,
 * no credentials, a short timeout. For `parley doctor` and for the checks made before a run or a
 * consult (readiness.ts).
 */

export const ENDPOINT_TIMEOUT_MS = 3_000;
/** A model list longer than this is not read (OpenRouter's, the longest known, is about 1 MB). */
const MAX_MODEL_LIST_BYTES = 8 * 1024 * 1024;

export interface EndpointProbe {
  /** The HTTP status of any answer (401 and 404 count: something is listening). */
  status?: number;
  error?: string;
  /** Nothing listens there, or the host does not exist: a clear no, unlike a slow answer. */
  definite?: boolean;
  /** The model ids the endpoint lists, when it answered with a whole OpenAI-style list ({data: [{id}]}). */
  models?: string[];
}

export async function probeEndpoint(url: string, timeoutMs = ENDPOINT_TIMEOUT_MS): Promise<EndpointProbe> {
  try {
    const response = await fetch(`${url.replace(/\/+$/, '')}/models`, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    const models = response.ok ? await listedModels(response) : void (await response.body?.cancel().catch(() => undefined));
    return { status: response.status, ...(models && { models }) };
  } catch (error) {
    return networkError(error, timeoutMs);
  }
}

/** The ids of a complete list, else undefined (another shape, a later page, too long, cut off): only a whole list can say a model is not there. */
async function listedModels(response: Response): Promise<string[] | undefined> {
  try {
    const text = await boundedText(response, MAX_MODEL_LIST_BYTES);
    const body = text === undefined ? undefined : (JSON.parse(text) as { data?: unknown; has_more?: unknown });
    if (!body || typeof body !== 'object' || !Array.isArray(body.data) || body.has_more === true) return undefined;
    const ids = body.data.map((entry: unknown) => (entry as { id?: unknown } | null)?.id);
    return ids.every((id): id is string => typeof id === 'string') ? ids : undefined;
  } catch {
    return undefined;
  }
}

async function boundedText(response: Response, maxBytes: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Whether a listed model serves `model`: by its id, by Ollama's implicit `:latest`, or by the id
 * before a variant suffix (OpenRouter's `:nitro`, `:online`, which its list leaves out).
 */
export function servesModel(models: readonly string[], model: string): boolean {
  const colon = model.lastIndexOf(':');
  return models.includes(model) || models.includes(`${model}:latest`) || (colon > 0 && models.includes(model.slice(0, colon)));
}

/** Why `model` cannot be called at `url`, when its list says so, and the fix; `where` names what to correct (a spec). */
export function modelNotServed(url: string, probe: EndpointProbe, model: string, where: string): { problem: string; fix: string } | undefined {
  if (!probe.models || !model || servesModel(probe.models, model)) return undefined;
  if (probe.models.length === 0) return { problem: `${url} lists no models, so it cannot answer for "${model}"`, fix: `load or pull the model there, or correct ${where}` };
  const shown = probe.models.slice(0, 8).join(', ') + (probe.models.length > 8 ? `, and ${probe.models.length - 8} more` : '');
  const near = closest(model, [...probe.models]);
  return { problem: `${url} does not serve the model "${model}" (it lists ${shown})`, fix: `correct ${where}${near ? ` (did you mean "${near}"?)` : ''}, or load the model there` };
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
