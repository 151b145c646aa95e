/**
 * A scripted Anthropic Messages API on 127.0.0.1 (port 0) for running the real `claude -p`
 * offline. Serves `HEAD /` and `POST /v1/messages` (Claude Code adds `?beta=true`), streaming SSE
 * or plain JSON, text or `tool_use` replies, and records every request. Requests Claude Code makes
 * on the side (title, quota checks) reach the script too: `isTitleRequest` helps tell them apart.
 */
import http from 'node:http';
import { readBody, sleepUnlessClosed, listenOnLoopback } from './http-helpers.js';

export type AnthropicReply =
  | { text: string; usage?: AnthropicUsage; delayMs?: number }
  | { toolUse: { name: string; input: unknown; id?: string }; text?: string; usage?: AnthropicUsage; delayMs?: number }
  | { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number };

export interface AnthropicUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheCreation?: number;
}

export interface AnthropicRequestRecord {
  body: any;
  model: string;
  stream: boolean;
  /** The system prompt flattened to text. */
  system: string;
  /** The last text block of the last user message (Claude Code puts its own reminders first). */
  lastUserText: string;
  index: number;
}

export interface ScriptedAnthropic {
  /** e.g. http://127.0.0.1:PORT (no /v1: ANTHROPIC_BASE_URL takes the origin) */
  baseUrl: string;
  requests: AnthropicRequestRecord[];
  close(): Promise<void>;
}

type Script = AnthropicReply[] | ((req: AnthropicRequestRecord) => AnthropicReply | Promise<AnthropicReply>);

/** Claude Code asks for a short title of the conversation in a side request. */
export function isTitleRequest(req: AnthropicRequestRecord): boolean {
  return /title/i.test(req.system) && !Array.isArray(req.body?.tools);
}

export async function startScriptedAnthropic(script: Script): Promise<ScriptedAnthropic> {
  const requests: AnthropicRequestRecord[] = [];
  let next = 0;
  const pickReply = async (record: AnthropicRequestRecord): Promise<AnthropicReply> => {
    if (typeof script === 'function') return script(record);
    return script[next++] ?? { text: `scripted-anthropic: no reply scripted for request #${record.index}` };
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'HEAD' || (req.method === 'GET' && path === '/')) {
      res.writeHead(200);
      res.end();
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/messages') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    const raw = await readBody(req);
    const body: any = raw ? JSON.parse(raw) : {};
    const record: AnthropicRequestRecord = {
      body,
      model: String(body.model ?? ''),
      stream: body.stream === true,
      system: flattenText(body.system),
      lastUserText: lastUserText(body.messages),
      index: requests.length,
    };
    requests.push(record);
    const reply = await pickReply(record);
    if (reply.delayMs && (await sleepUnlessClosed(reply.delayMs, req))) return;
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body ?? { type: 'error', error: { type: 'api_error', message: `scripted status ${reply.status}` } }));
      return;
    }
    const content = contentBlocks(reply, record.index);
    const usage = {
      input_tokens: reply.usage?.input ?? 12,
      output_tokens: reply.usage?.output ?? 6,
      cache_read_input_tokens: reply.usage?.cacheRead ?? 0,
      cache_creation_input_tokens: reply.usage?.cacheCreation ?? 0,
    };
    const stopReason = 'toolUse' in reply ? 'tool_use' : 'end_turn';
    const message = { id: `msg_scripted_${record.index}`, type: 'message', role: 'assistant', model: record.model, content, stop_reason: stopReason, stop_sequence: null, usage };
    if (!record.stream) {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${record.index}` });
      res.end(JSON.stringify(message));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${record.index}` });
    const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    send('message_start', {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
    });
    content.forEach((block, index) => {
      if (block.type === 'text') {
        send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
      } else {
        send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
        send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
      }
      send('content_block_stop', { type: 'content_block_stop', index });
    });
    send('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
    send('message_stop', { type: 'message_stop' });
    res.end();
  };

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(error) } }));
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    baseUrl: `${listening.origin}`,
    requests,
    close: listening.close,
  };
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };

function contentBlocks(reply: Exclude<AnthropicReply, { status: number }>, index: number): Block[] {
  if (!('toolUse' in reply)) return [{ type: 'text', text: reply.text }];
  const blocks: Block[] = reply.text ? [{ type: 'text', text: reply.text }] : [];
  blocks.push({ type: 'tool_use', id: reply.toolUse.id ?? `toolu_scripted_${index}`, name: reply.toolUse.name, input: reply.toolUse.input });
  return blocks;
}

function flattenText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value
    .map((block: { type?: string; text?: unknown; content?: unknown }) => {
      if (typeof block === 'string') return block;
      if (block.type === 'text' && typeof block.text === 'string') return block.text;
      if (block.type === 'tool_result') return flattenText(block.content);
      return '';
    })
    .join('\n');
}

function lastUserText(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  const users = messages.filter((m: { role?: string }) => m.role === 'user');
  const last = users[users.length - 1] as { content?: unknown } | undefined;
  if (!last) return '';
  if (!Array.isArray(last.content)) return flattenText(last.content);
  const texts = last.content.map((block: unknown) => flattenText([block])).filter((text: string) => text.length > 0);
  return texts[texts.length - 1] ?? '';
}


