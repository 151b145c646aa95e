/**
 * An OpenAI-compatible chat completions server on 127.0.0.1 whose "models" are whoever answers the
 * prompt files: each request for model M is written to <dir>/M/NNN.prompt.md (its system message
 * and its last user message; the JSON schema of a json_schema response format to NNN.schema.json),
 * and the text of <dir>/M/NNN.reply.md, once it exists, is the reply (streamed when asked).
 *
 *   node --import tsx scripts/real-minds/relay-chat.ts --dir <folder> [--port <n>]
 *
 * The reply itself is sent by test/doubles/scripted-chat.ts: this relay holds each request until its
 * reply file exists, then forwards it, reply attached, to a scripted server that answers with it
 * (plain JSON or SSE chunks, as the request asked). <dir>/base-url gets the URL for model specs
 * (`openai-compatible:<base-url>#<model>`); <dir>/calls.jsonl one line per request.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { writeFileAtomic } from '../../state/atomic-write.js';
import { nodeFs } from '../../state/fs-seam.js';
import { readBody } from '../../test/doubles/http-helpers.js';
import { startScriptedChat } from '../../test/doubles/scripted-chat.js';
import { cliArgs, fail, say, forwardTo } from './common.js';

const POLL_MS = 200;
const REPLY_FIELD = 'x_real_minds_reply';

const { dir, values } = cliArgs({ port: { type: 'string' }, 'wait-minutes': { type: 'string' } });
const port = Number(values.port ?? 0);
const waitMs = Number(values['wait-minutes'] ?? 30) * 60_000;
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail('--port must be a port number');
if (!(waitMs > 0)) fail('--wait-minutes must be a positive number');

const inner = await startScriptedChat((req) => ({ content: String(req.body?.[REPLY_FIELD] ?? '') }));
/** The last number used per model folder; a restarted relay goes on from the files already there. */
const counters = new Map<string, number>();
/** A mind polling for prompt files never reads half of one. */
const writeFile = (path: string, text: string) => writeFileAtomic(nodeFs, path, text);

interface ChatMessage {
  role?: unknown;
  content?: unknown;
}

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('') : '';

/** A folder name for a model name: what a spec's `#<model>` may hold, made safe for a path. */
const folderOf = (model: string): string => model.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_') || 'model';

function nextNumber(folder: string): string {
  const path = join(dir, folder);
  if (!counters.has(folder)) {
    mkdirSync(path, { recursive: true });
    counters.set(folder, Math.max(0, ...readdirSync(path).map((name) => Number(/^(\d+)\.prompt\.md$/.exec(name)?.[1] ?? 0))));
  }
  const n = counters.get(folder)! + 1;
  counters.set(folder, n);
  return String(n).padStart(3, '0');
}

/** What the mind reads: the system message and the newest user message (earlier turns it has answered itself). */
function promptFile(messages: ChatMessage[]): string {
  const system = messages.filter((message) => message.role === 'system').map((message) => textOf(message.content));
  const user = messages.filter((message) => message.role === 'user').at(-1);
  const earlier = messages.filter((message) => message.role !== 'system').length - 1;
  return [
    ...(system.length ? ['# System', '', system.join('\n\n'), ''] : []),
    `# User${earlier > 0 ? ` (after ${earlier} earlier message${earlier === 1 ? '' : 's'} of this conversation)` : ''}`,
    '',
    user ? textOf(user.content) : '(no user message)',
    '',
  ].join('\n');
}

const server = createServer((req, res) => {
  void handle(req, res).catch((error: unknown) => {
    console.error('relay-chat: handler failed', error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Before the response ends, its 'close' means parley went away (canceled or timed out).
  let gone = false;
  res.once('close', () => (gone = true));
  const raw = await readBody(req);
  let body: Record<string, unknown> | undefined;
  try {
    body = JSON.parse(raw);
  } catch {
    body = undefined;
  }
  if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/chat/completions' || typeof body !== 'object' || body === null) {
    return forward(req, res, raw); // the scripted server answers what it answers (a 404 JSON error)
  }
  const model = String(body.model ?? '');
  const folder = folderOf(model);
  const n = nextNumber(folder);
  const at = (suffix: string) => join(dir, folder, `${n}.${suffix}`);
  const format = body.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined;
  const schema = format?.type === 'json_schema' ? format.json_schema?.schema : undefined;
  if (schema !== undefined) await writeFile(at('schema.json'), `${JSON.stringify(schema, null, 2)}\n`);
  const prompt = promptFile(Array.isArray(body.messages) ? (body.messages as ChatMessage[]) : []);
  await writeFile(at('prompt.md'), prompt);
  say(`${folder}/${n}: waiting for ${at('reply.md')}${schema !== undefined ? ` (JSON matching ${n}.schema.json)` : ''}`);

  const started = Date.now();
  const log = (fields: Record<string, unknown>) =>
    appendFile(join(dir, 'calls.jsonl'), `${JSON.stringify({ model, n, stream: body?.stream === true, promptBytes: Buffer.byteLength(prompt), ms: Date.now() - started, ...fields })}\n`);
  while (!existsSync(at('reply.md'))) {
    await sleep(POLL_MS);
    if (gone || Date.now() - started > waitMs) {
      const why = gone ? 'parley closed the request (canceled or timed out)' : `no reply within ${waitMs / 60_000} min`;
      await writeFile(at('abandoned.md'), `${why}; do not answer ${n}.\n`);
      await log({ abandoned: why });
      say(`${folder}/${n}: abandoned: ${why}`);
      if (!gone) res.writeHead(504, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: why } }));
      return;
    }
  }
  await sleep(200); // a reply written in place rather than renamed: let the writer finish
  const reply = (await readFile(at('reply.md'), 'utf8')).trim();
  await log({ replyBytes: Buffer.byteLength(reply) });
  say(`${folder}/${n}: replied (${Buffer.byteLength(reply)} bytes)`);
  await forward(req, res, JSON.stringify({ ...body, [REPLY_FIELD]: reply }));
}

const forward = (req: IncomingMessage, res: ServerResponse, body: string) => forwardTo(inner.baseUrl, req, res, body);

await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
const address = server.address();
const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/v1`;
await writeFile(join(dir, 'base-url'), `${baseUrl}\n`);
say(`relay-chat: ${baseUrl}; model specs openai-compatible:${baseUrl}#<model>, one folder per <model> in ${dir}`);

async function stop(): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await inner.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
