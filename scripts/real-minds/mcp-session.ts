/**
 * One long-running parley MCP session: the built server (dist/cli/main.js) over stdio with the
 * real SDK client, reachable through the unix socket <dir>/mcp.sock (mcp-call.ts), so quick-mode
 * deliberations, which live in the server's memory, outlive each call.
 *
 *   node --import tsx scripts/real-minds/mcp-session.ts --dir <folder> [--env <env.json>] [--server <cli.js>] [--cwd <repo>]
 *
 * The server gets this process's environment plus env.json (default: <dir>/env.json if present, as
 * relay-responses.ts writes it). Every call is appended to <dir>/calls.jsonl (its cost) and to
 * <dir>/transcript.jsonl (its arguments and what the model was shown); the server's stderr goes to
 * <dir>/server.stderr.log. --server runs another build than this repository's dist; --cwd runs the
 * server in a repository of the trial's own (its decision records, its Codex working folder), default <dir>.
 */
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cliArgs, fail, repoRoot, say, socketPath, type CallRecord, type SessionReply, type SessionRequest } from './common.js';

const CALL_TIMEOUT_MS = 15 * 60_000;

const { dir, values } = cliArgs({ env: { type: 'string' }, server: { type: 'string' }, cwd: { type: 'string' } });
const entry = resolve(values.server ?? join(repoRoot, 'dist/cli/main.js'));
if (!existsSync(entry)) fail(`${entry} is missing: run \`npm run build\` first`);
const envFile = values.env ?? (existsSync(join(dir, 'env.json')) ? join(dir, 'env.json') : undefined);
const extraEnv = envFile ? (JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>) : {};
const cwd = resolve(values.cwd ?? dir);
if (!existsSync(cwd)) fail(`--cwd ${cwd} does not exist`);
const env = { ...(process.env as Record<string, string>), ...extraEnv };

const transport = new StdioClientTransport({ command: process.execPath, args: [entry], env, cwd, stderr: 'pipe' });
transport.stderr?.on('data', (chunk: Buffer) => appendFileSync(join(dir, 'server.stderr.log'), chunk));
const client = new Client({ name: 'real-minds', version: '0' });
await client.connect(transport).catch((error: Error) => fail(`the parley server did not start (${error.message}); see ${join(dir, 'server.stderr.log')}`));
client.onclose = () => {
  console.error('session: the parley server went away (see server.stderr.log)');
  rmSync(socketPath(dir), { force: true });
  process.exit(1);
};

const logFile = join(dir, 'calls.jsonl');
let calls = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean).length : 0;

/** What Claude Code shows the model: structuredContent as JSON, else the text; errors prefixed. */
function shown(result: CallToolResult): string {
  const text = result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
  if (result.isError) return `ERROR: ${text}`;
  return result.structuredContent ? JSON.stringify(result.structuredContent) : text;
}

async function serve(request: SessionRequest, send: (reply: SessionReply) => void, signal: AbortSignal): Promise<void> {
  const started = Date.now();
  const tool = request.kind === 'tools' ? 'tools/list' : request.tool;
  const args = request.kind === 'tools' ? {} : request.args;
  let text: string;
  let isError = false;
  try {
    if (request.kind === 'tools') {
      text = JSON.stringify((await client.listTools(undefined, { signal })).tools);
    } else {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: CALL_TIMEOUT_MS,
        resetTimeoutOnProgress: true,
        onprogress: (p) => send({ kind: 'progress', message: `${p.progress}${p.total ? `/${p.total}` : ''} ${p.message ?? ''}` }),
      });
      text = shown(result as CallToolResult);
      isError = Boolean(result.isError);
    }
  } catch (error) {
    text = `ERROR: ${error instanceof Error ? error.message : String(error)}`;
    isError = true;
  }
  const record: CallRecord = { i: ++calls, tool, argsBytes: Buffer.byteLength(JSON.stringify(args)), resultBytes: Buffer.byteLength(text), isError, ms: Date.now() - started };
  appendFileSync(logFile, `${JSON.stringify(record)}\n`);
  appendFileSync(join(dir, 'transcript.jsonl'), `${JSON.stringify({ i: record.i, tool, args, text })}\n`);
  send({ kind: 'result', text, isError });
}

/** One request line per connection; progress lines, then the result line. Closing the connection cancels the call. */
function onConnection(socket: Socket): void {
  const abort = new AbortController();
  let done = false;
  socket.on('close', () => done || abort.abort());
  socket.on('error', () => undefined);
  const lines = createInterface({ input: socket });
  lines.once('line', (line) => {
    lines.close();
    const send = (reply: SessionReply) => socket.writable && socket.write(`${JSON.stringify(reply)}\n`);
    let request: SessionRequest;
    try {
      request = JSON.parse(line) as SessionRequest;
    } catch {
      send({ kind: 'result', text: 'ERROR: the session got a request line that is not JSON', isError: true });
      socket.end();
      return;
    }
    void serve(request, send, abort.signal).finally(() => {
      done = true;
      socket.end();
    });
  });
}

rmSync(socketPath(dir), { force: true });
const listener = createServer(onConnection).listen(socketPath(dir));
say(`session: parley (pid ${transport.pid}) ready on ${socketPath(dir)}${envFile ? ` with ${envFile}` : ''}`);

async function stop(): Promise<void> {
  client.onclose = undefined;
  listener.close();
  await client.close();
  rmSync(socketPath(dir), { force: true });
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
