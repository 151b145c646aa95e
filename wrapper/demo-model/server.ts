/**
 * parley's local demo model: an HTTP server on 127.0.0.1 that speaks the OpenAI chat completions API
 * (what `openai-compatible:<url>#<model>` specs call, streamed or not) and the Responses API (what
 * Codex CLI calls through a custom provider), and answers with respond.ts's canned replies. It needs
 * no key and no network, and it is no mind: it is there so a new user can see parley work.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { replyText, type ChatMessage } from './respond.js';

export interface DemoModel {
  /** e.g. http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  port: number;
  /** How many requests it has answered. */
  served(): number;
  close(): Promise<void>;
}

export interface DemoModelOptions {
  /** Default: a free port. */
  port?: number;
  /** How long it takes to answer a call, as a remote model would (default 0). */
  latencyMs?: number;
  /** Told of every model call as it arrives, before it is answered: the model and the sampling seed it was asked for. */
  onCall?: (call: { model: string; seed?: number }) => void;
}

/** The model names it lists; any other name is answered the same way. */
export const DEMO_MODELS = ['demo-optimist', 'demo-skeptic', 'demo-pragmatist', 'demo-judge', 'demo-a', 'demo-b', 'demo-consultee'] as const;

const MAX_BODY_BYTES = 8 * 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (part: Buffer) => {
      size += part.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, `request body over ${MAX_BODY_BYTES} bytes`));
        req.destroy();
      } else parts.push(part);
    });
    req.on('end', () => {
      try {
        const value: unknown = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}');
        if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
        resolve(value as Record<string, unknown>);
      } catch {
        reject(new HttpError(400, 'the request body is not a JSON object'));
      }
    });
    req.on('error', reject);
  });
}

/** Message content as text: a string, or the text parts of an array of parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '')).join('');
}

const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

export async function startDemoModel(options: DemoModelOptions = {}): Promise<DemoModel> {
  let served = 0;
  const server = createServer((req, res) => {
    void route(req, res).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: error instanceof Error ? error.message : String(error), type: 'demo_model_error' } }));
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
    if (req.method === 'GET' && path === '/v1/models') {
      sendJson(res, { object: 'list', data: DEMO_MODELS.map((id) => ({ id, object: 'model', created: 0, owned_by: 'parley-demo' })) });
      return;
    }
    if (req.method === 'POST' && (path === '/v1/chat/completions' || path === '/v1/responses')) {
      const body = await readJson(req);
      options.onCall?.({ model: String(body.model ?? 'demo'), ...(typeof body.seed === 'number' && { seed: body.seed }) });
      if (options.latencyMs) await sleep(options.latencyMs);
      return path === '/v1/responses' ? responses(body, res) : chat(body, res);
    }
    throw new HttpError(404, `parley demo model: no route ${req.method} ${path || '/'} (it serves /v1/models, /v1/chat/completions and /v1/responses)`);
  }

  function chat(body: Record<string, unknown>, res: ServerResponse): void {
    const model = String(body.model ?? 'demo');
    const messages: ChatMessage[] = (Array.isArray(body.messages) ? body.messages : []).map((m: { role?: unknown; content?: unknown }) => ({ role: String(m?.role ?? ''), content: contentText(m?.content) }));
    const format = (body.response_format ?? {}) as { type?: string; json_schema?: { name?: unknown; schema?: unknown } };
    const json = format.type === 'json_schema' ? format.json_schema : undefined;
    const text = replyText({ model, messages, ...(typeof json?.name === 'string' && { schemaName: json.name }), ...(json?.schema !== undefined && { schema: json.schema }) });
    served += 1;
    const usage = { prompt_tokens: tokens(messages.map((m) => m.content).join('')), completion_tokens: tokens(text), total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const id = `chatcmpl-demo-${served}`;
    const created = Math.floor(Date.now() / 1000);
    if (body.stream !== true) {
      sendJson(res, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop', logprobs: null }], usage });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`);
    chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
    for (const piece of text.match(/[\s\S]{1,64}/g) ?? []) chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]);
    chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]);
    if ((body.stream_options as { include_usage?: unknown } | undefined)?.include_usage) chunk([], { usage });
    res.end('data: [DONE]\n\n');
  }

  /** The Responses API as Codex uses it: one SSE stream with the message item, then response.completed. */
  function responses(body: Record<string, unknown>, res: ServerResponse): void {
    const input = Array.isArray(body.input) ? (body.input as { type?: unknown; role?: unknown; content?: unknown }[]) : [];
    const messages: ChatMessage[] = input.filter((item) => item?.type === 'message').map((item) => ({ role: String(item.role ?? ''), content: contentText(item.content) }));
    const format = ((body.text ?? {}) as { format?: { type?: string; name?: unknown; schema?: unknown } }).format;
    const schema = format?.type === 'json_schema' ? format : undefined;
    const text = replyText({ model: String(body.model ?? 'demo'), messages, ...(typeof schema?.name === 'string' && { schemaName: schema.name }), ...(schema?.schema !== undefined && { schema: schema.schema }) });
    served += 1;
    const id = `resp_demo_${served}`;
    const item = { type: 'message', id: `msg_demo_${served}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
    const input_tokens = tokens(messages.map((m) => m.content).join(''));
    const output_tokens = tokens(text);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send('response.created', { response: { id, status: 'in_progress', output: [] } });
    send('response.output_item.done', { output_index: 0, item });
    send('response.completed', {
      response: { id, status: 'completed', output: [item], usage: { input_tokens, input_tokens_details: { cached_tokens: 0 }, output_tokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input_tokens + output_tokens } },
    });
    res.end();
  }

  // Loopback only: the demo model is for this machine.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    served: () => served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendJson(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}
