import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { redact } from '../schemas/secrets.js';
import { createServer } from './server.js';
import { createDeps, type DepsOptions } from './deps.js';
import { LineLimit, type DroppedLine } from './line-limit.js';
import { PARLEY_VERSION } from './version.js';

/** The largest message parley reads (the SDK's own read-buffer size). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const MIB = 1024 * 1024;

/** Serves parley over stdio until the client closes stdin. Logs go to stderr only. */
export async function serveStdio(options: DepsOptions = {}): Promise<void> {
  const deps = createDeps(options);
  const server = createServer(deps);
  const input = process.stdin.pipe(new LineLimit(MAX_MESSAGE_BYTES, (line) => void refuse(line)));
  // Lines reach the SDK whole and within the limit, so its own buffer (which closes the transport when it overflows) never fills.
  const transport = new StdioServerTransport(input, process.stdout, { maxBufferSize: 2 * MAX_MESSAGE_BYTES + MIB });
  const refuse = async ({ bytes, id }: DroppedLine): Promise<void> => {
    const message = `message of ${(bytes / MIB).toFixed(1)} MiB dropped: parley reads at most ${MAX_MESSAGE_BYTES / MIB} MiB per message; send smaller arguments`;
    log(`${message}${id === undefined ? ' (no request id found: no error was sent)' : ''}`);
    if (id !== undefined) await transport.send({ jsonrpc: '2.0', id, error: { code: -32600, message } } as JSONRPCMessage).catch(() => undefined);
  };
  const shutdown = async (): Promise<void> => {
    await deps.jobs.shutdown();
    await server.close();
  };
  transport.onclose = () => void deps.jobs.shutdown();
  // Transport and protocol errors (an unparsable line, a broken pipe) were silent: they go to stderr.
  server.server.onerror = (error) => log(error.message);
  process.once('SIGTERM', () => void shutdown().finally(() => process.exit(0)));
  process.once('SIGINT', () => void shutdown().finally(() => process.exit(0)));
  // After the handlers, so the Ctrl-C it promises quits cleanly.
  const hint = terminalHint(process.stdin, process.argv[1]);
  if (hint) process.stderr.write(hint);
  await server.connect(transport);
}

/**
 * What a person who starts the server in a terminal sees (clients pipe stdin, so they never get it):
 * otherwise `npm start` looks hung, and typed text is silently ignored.
 */
export function terminalHint(stdin: { isTTY?: boolean }, entry: string | undefined): string | undefined {
  if (!stdin.isTTY) return undefined;
  const command = entry && /\.m?js$/.test(entry) ? `node ${entry}` : 'node /path/to/parley/plugin/parley-server.mjs';
  return [
    `parley ${PARLEY_VERSION}: an MCP server on stdio. It waits for an MCP client's JSON-RPC, not for typed input.`,
    'Connect a client to it instead, e.g.:',
    `  claude mcp add parley -- ${command}`,
    `  codex mcp add parley -- ${command}`,
    'The commands for a person (debate, dialogic, report, sweep) are listed by --help. Ctrl-C quits.',
    '',
  ].join('\n');
}

function log(message: string): void {
  process.stderr.write(`parley: ${redact(message).slice(0, 500)}\n`);
}
