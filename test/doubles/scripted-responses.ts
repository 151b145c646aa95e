import { strictSchemaProblem } from '../../wrapper/strict-schema.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readBody, listenOnLoopback } from './http-helpers.js';

/**
 * A scripted OpenAI Responses-API server on 127.0.0.1 (port 0): the one test double allowed for a
 * hosted model. Each POST /v1/responses consumes one script step and answers with the smallest SSE
 * stream Codex accepts (output_item.done items, then response.completed with usage).
 */
export interface ResponsesScriptStep {
  text?: string;
  /** Emit an `exec_command` function call; Codex runs it and sends the output in the next request. */
  toolCall?: { command: string[] };
  /** An HTTP error status instead of a stream (with `errorBody` as the JSON error message). */
  status?: number;
  errorBody?: string;
  /** End the stream after the output items, before `response.completed`. */
  cutStream?: boolean;
  delayMs?: number;
  /** Hold the answer until this settles: a test orders events without guessing how long they take. */
  until?: Promise<unknown>;
  usage?: Partial<{ input: number; cached: number; output: number; reasoning: number }>;
}

/** Raw JSON of a request as Codex sent it (tests read arbitrary fields of it). */
export type RequestBody = any;

export type ResponsesScript = ResponsesScriptStep[] | ((req: { body: RequestBody; index: number }) => ResponsesScriptStep);

export interface ScriptedResponsesServer {
  baseUrl: string;
  requests: { body: RequestBody; path: string }[];
  close(): Promise<void>;
}

export async function startScriptedResponses(script: ResponsesScript): Promise<ScriptedResponsesServer> {
  const requests: { body: RequestBody; path: string }[] = [];
  let responsesServed = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      console.error('scripted-responses: handler failed', error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    let body: RequestBody = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // keep the raw text: a test may want to see what was sent
    }
    requests.push({ body, path });
    if (req.method !== 'POST' || !path.endsWith('/responses')) {
      sendJsonError(res, 404, `scripted-responses: no route for ${req.method} ${path}`);
      return;
    }
    // Like the real API: a strict json_schema that strict mode cannot accept is a 400, before any script.
    const format = (body as { text?: { format?: { type?: string; strict?: boolean; schema?: unknown } } } | undefined)?.text?.format;
    const strictProblem = format?.type === 'json_schema' && format.strict ? strictSchemaProblem(format.schema) : undefined;
    if (strictProblem) {
      sendJsonError(res, 400, `Invalid schema for response_format: ${strictProblem}`);
      return;
    }
    const index = responsesServed++;
    const step = typeof script === 'function' ? script({ body, index }) : script[index];
    if (!step) {
      sendJsonError(res, 500, `scripted-responses: script exhausted at request ${index}`);
      return;
    }
    if (step.delayMs) await sleep(step.delayMs);
    if (step.until) await step.until.catch(() => undefined);
    if (step.status && step.status >= 400) {
      sendJsonError(res, step.status, step.errorBody ?? `scripted error ${step.status}`);
      return;
    }
    writeStream(res, step, index);
  }

  const listening = await listenOnLoopback(server);
  return {
    baseUrl: `${listening.origin}/v1`,
    requests,
    close: listening.close,
  };
}

function writeStream(res: ServerResponse, step: ResponsesScriptStep, index: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const responseId = `resp_${index}`;
  const send = (type: string, data: Record<string, unknown>): void => {
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  send('response.created', { response: { id: responseId, status: 'in_progress', output: [] } });
  const items = outputItems(step, index);
  items.forEach((item, outputIndex) => send('response.output_item.done', { output_index: outputIndex, item }));
  if (step.cutStream) {
    res.end();
    return;
  }
  const usage = {
    input: step.usage?.input ?? 100,
    cached: step.usage?.cached ?? 0,
    output: step.usage?.output ?? 10,
    reasoning: step.usage?.reasoning ?? 0,
  };
  send('response.completed', {
    response: {
      id: responseId,
      status: 'completed',
      output: items,
      usage: {
        input_tokens: usage.input,
        input_tokens_details: { cached_tokens: usage.cached },
        output_tokens: usage.output,
        output_tokens_details: { reasoning_tokens: usage.reasoning },
        total_tokens: usage.input + usage.output,
      },
    },
  });
  res.end();
}

function outputItems(step: ResponsesScriptStep, index: number): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (step.text !== undefined) {
    items.push({
      type: 'message',
      id: `msg_${index}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: step.text, annotations: [] }],
    });
  }
  if (step.toolCall) {
    items.push({
      type: 'function_call',
      id: `fc_${index}`,
      call_id: `call_${index}`,
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: shellJoin(step.toolCall.command) }),
      status: 'completed',
    });
  }
  return items;
}

/** exec_command takes one shell string; quote each word so the argv survives the trip. */
function shellJoin(words: string[]): string {
  return words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function sendJsonError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type: 'scripted_error', code: null } }));
}


const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
