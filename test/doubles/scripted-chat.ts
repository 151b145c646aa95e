/**
 * A scripted OpenAI-compatible chat server on 127.0.0.1 (port 0): the test double for a hosted
 * model. It answers POST /v1/chat/completions from a list of replies (consumed in order) or from a
 * function that sees each request, streaming (SSE) or not, and records every request.
 */
import http from 'node:http';
import { readBody, sleepUnlessClosed, listenOnLoopback } from './http-helpers.js';

export type ChatReply =
  | { content: string; delayMs?: number; usage?: { prompt: number; completion: number; cached?: number; reasoning?: number } }
  | { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number };

export interface ChatRequestRecord {
  body: any;
  model: string;
  messages: { role: string; content: string }[];
  stream: boolean;
  index: number;
  /** The Authorization header as sent, so a test can check which key went out. */
  authorization?: string;
}

export interface ScriptedChat {
  /** e.g. http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  requests: ChatRequestRecord[];
  close(): Promise<void>;
}

type Script = ChatReply[] | ((req: ChatRequestRecord) => ChatReply | Promise<ChatReply>);

/** `models`: the ids GET /v1/models lists, as vLLM and Ollama list theirs (without it, that route is a 404, as on servers that list none). */
export async function startScriptedChat(script: Script, options: { models?: string[] } = {}): Promise<ScriptedChat> {
  const requests: ChatRequestRecord[] = [];
  let next = 0;

  const pickReply = async (record: ChatRequestRecord): Promise<ChatReply> => {
    if (typeof script === 'function') return script(record);
    const reply = script[next++];
    return reply ?? { status: 500, body: { error: { message: `scripted-chat: no reply scripted for request #${record.index}` } } };
  };

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/v1/models' && options.models) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: options.models.map((id) => ({ id, object: 'model', owned_by: 'scripted' })) }));
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `scripted-chat: no route ${req.method} ${req.url}` } }));
      return;
    }
    const raw = await readBody(req);
    const body: any = raw ? JSON.parse(raw) : {};
    const record: ChatRequestRecord = {
      body,
      model: String(body.model ?? ''),
      messages: (Array.isArray(body.messages) ? body.messages : []).map((m: { role?: unknown; content?: unknown }) => ({
        role: String(m.role ?? ''),
        content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
      })),
      stream: body.stream === true,
      index: requests.length,
      ...(req.headers.authorization !== undefined && { authorization: req.headers.authorization }),
    };
    requests.push(record);
    const reply = await pickReply(record);
    if (reply.delayMs) {
      const closed = await sleepUnlessClosed(reply.delayMs, req);
      if (closed) return;
    }
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body ?? { error: { message: `scripted status ${reply.status}`, type: 'scripted' } }));
      return;
    }
    const usage = {
      prompt_tokens: reply.usage?.prompt ?? 10,
      completion_tokens: reply.usage?.completion ?? 5,
      total_tokens: (reply.usage?.prompt ?? 10) + (reply.usage?.completion ?? 5),
      ...(reply.usage?.cached !== undefined && { prompt_tokens_details: { cached_tokens: reply.usage.cached } }),
      ...(reply.usage?.reasoning !== undefined && { completion_tokens_details: { reasoning_tokens: reply.usage.reasoning } }),
    };
    const id = `chatcmpl-scripted-${record.index}`;
    const created = Math.floor(Date.now() / 1000);
    if (!record.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model: record.model,
          choices: [{ index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: 'stop', logprobs: null }],
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: record.model, choices, ...extra })}\n\n`;
    res.write(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]));
    for (const piece of splitIntoPieces(reply.content)) {
      res.write(chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]));
    }
    res.write(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]));
    if (body.stream_options?.include_usage) res.write(chunk([], { usage }));
    res.end('data: [DONE]\n\n');
  };

  const listening = await listenOnLoopback(server);
  return {
    baseUrl: `${listening.origin}/v1`,
    requests,
    close: listening.close,
  };
}



function splitIntoPieces(text: string): string[] {
  const pieces = text.match(/[\s\S]{1,8}/g);
  return pieces ?? [];
}
