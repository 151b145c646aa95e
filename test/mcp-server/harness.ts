import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createDeps, type DepsOptions, type ServerDeps } from '../../mcp-server/deps.js';
import { createServer } from '../../mcp-server/server.js';
import { zeroUsage } from '../../schemas/common.js';
import type { CodexCallOptions, CodexCallResult } from '../../wrapper/codex/index.js';
import { whyNotReady } from '../../wrapper/readiness.js';

export interface Harness {
  client: Client;
  deps: ServerDeps;
  home: string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Calls a tool that must succeed and returns its structuredContent. */
  ok<T = Record<string, any>>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** Calls a tool that must be refused and returns the error text. */
  refused(name: string, args?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** A real MCP Client talking to a real parley server over the SDK's in-memory transport. */
export async function startHarness(options: DepsOptions = {}): Promise<Harness> {
  const home = options.home ?? (await mkdtemp(join(tmpdir(), 'parley-test-')));
  // A stand-in Codex (runCodex) is as ready as itself: only other models are checked as the server checks them.
  const env = options.env ?? process.env;
  const modelCheck = options.modelCheck ?? (options.runCodex ? (spec: string) => (/^codex(:|$)/.test(spec) ? Promise.resolve(undefined) : whyNotReady(spec, env)) : undefined);
  // A tool that writes decision records writes them where the test says, never into this repository.
  const deps = createDeps({ ...options, home, cwd: options.cwd ?? home, ...(modelCheck && { modelCheck }) });
  const server = createServer(deps);
  const client = new Client({ name: 'parley-test', version: '0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  return {
    client,
    deps,
    home,
    call,
    async ok(name, args) {
      const result = await call(name, args);
      if (result.isError) throw new Error(`${name} was refused: ${JSON.stringify(result.content)}`);
      return result.structuredContent as never;
    },
    async refused(name, args) {
      const result = await call(name, args);
      if (!result.isError) throw new Error(`${name} was expected to be refused, got ${JSON.stringify(result.structuredContent)}`);
      return (result.content as { text: string }[]).map((c) => c.text).join('\n');
    },
    async close() {
      await deps.jobs.shutdown();
      await client.close();
      await server.close();
      if (!options.home) await rm(home, { recursive: true, force: true });
    },
  };
}

export interface FakeCodex {
  run(options: CodexCallOptions): Promise<CodexCallResult>;
  /** Every call parley made, in order (prompt, sessionId...). */
  calls: CodexCallOptions[];
}

/**
 * Stands in for the Codex wrapper in the in-memory layer (the stdio tests in test/mcp-server/consult run the
 * real binary): answers each prompt with `answer(prompt)`, in one session.
 */
export function fakeCodex(answer: (prompt: string) => string): FakeCodex {
  const calls: CodexCallOptions[] = [];
  return {
    calls,
    async run(options) {
      calls.push(options);
      const usage = zeroUsage();
      return { answer: answer(options.prompt), sessionId: options.sessionId ?? 'fake-session-1', usage, events: [], warnings: [], commands: [], argv: [], durationMs: 1 };
    },
  };
}
