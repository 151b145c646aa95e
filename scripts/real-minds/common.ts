import { mkdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** The repository root (scripts/real-minds/../..). */
export const repoRoot = resolve(import.meta.dirname, '../..');

/** `--dir <folder>` (required, created if missing), the other options asked for, and the positionals. */
export function cliArgs(options: Record<string, { type: 'string' }> = {}): {
  dir: string;
  values: Record<string, string | undefined>;
  positionals: string[];
} {
  const parsed = parseArgs({ options: { dir: { type: 'string' }, ...options }, allowPositionals: true });
  const dir = parsed.values.dir;
  if (typeof dir !== 'string') fail('--dir <folder> is required');
  mkdirSync(dir, { recursive: true });
  return { dir: resolve(dir), values: parsed.values as Record<string, string | undefined>, positionals: parsed.positionals };
}

export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** The session's unix socket; mcp-call sends one request line and reads reply lines. */
export const socketPath = (dir: string): string => resolve(dir, 'mcp.sock');

/** A line mcp-call sends: a tool call, or the tools list. */
export type SessionRequest = { kind: 'call'; tool: string; args: Record<string, unknown> } | { kind: 'tools' };

/** Lines the session answers with: progress while the call runs, then one result (exactly what the model sees). */
export type SessionReply = { kind: 'progress'; message: string } | { kind: 'result'; text: string; isError: boolean };

/** One line of calls.jsonl. */
export interface CallRecord {
  i: number;
  tool: string;
  argsBytes: number;
  resultBytes: number;
  isError: boolean;
  ms: number;
}

/**
 * Sends a request on to the scripted server at `baseUrl` (its /v1 root) and copies its answer back
 * whole: JSON or an SSE stream. Both relays hand each reply to a scripted server this way.
 */
export async function forwardTo(baseUrl: string, req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
  const url = `${baseUrl.replace(/\/v1$/, '')}${req.url ?? '/'}`;
  const answer = await fetch(url, { method: req.method ?? 'GET', headers: { 'content-type': 'application/json' }, body: req.method === 'GET' ? undefined : body });
  res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
  res.end(Buffer.from(await answer.arrayBuffer()));
}
