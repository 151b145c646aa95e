import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parseAuditLines, type AuditRecord } from '../../../state/audit-log.js';
import { makeCodexHome, type CodexHome } from '../../doubles/codex-home.js';
import { startScriptedResponses, type RequestBody, type ResponsesScript, type ScriptedResponsesServer } from '../../doubles/scripted-responses.js';

const root = resolve(import.meta.dirname, '../../..');
export const SERVER_ENTRY = join(root, 'dist/cli/main.js');
export const CODEX_BIN = join(root, 'node_modules/.bin/codex');

/**
 * The built parley server over stdio (a real SDK client), whose consults reach the real codex
 * binary, which talks to a scripted Responses server on 127.0.0.1. Everything but the hosted model
 * is the real program; state and Codex sessions live in throwaway folders.
 */
export interface ConsultRig {
  client: Client;
  server: ScriptedResponsesServer;
  codex: CodexHome;
  stateDir: string;
  /** The environment the parley server runs with (also what a raw `codex exec` should get). */
  env: Record<string, string>;
  /** The parley server's pid (it carries CODEX_HOME in its environment too). */
  serverPid: number | null;
  call(name: string, args?: Record<string, unknown>, options?: RequestOptions): Promise<CallToolResult>;
  /** A call that must succeed; returns its structuredContent. */
  ok<T = Record<string, any>>(name: string, args?: Record<string, unknown>, options?: RequestOptions): Promise<T>;
  /** A call that must be refused; returns the error text. */
  refused(name: string, args?: Record<string, unknown>): Promise<string>;
  /** The state file as written on disk (envelope: revision, value...). */
  stateFile(id: string): Promise<{ revision: number; value: any }>;
  audit(id: string): Promise<AuditRecord[]>;
  /** Prompts Codex sent, in order: the last user message of each recorded request. */
  prompts(): string[];
  close(): Promise<void>;
}

const openRigs = new Set<ConsultRig>();

/** Closes every rig a test started (call once at a test file's top level, inside vitest). */
export async function closeOpenRigs(): Promise<void> {
  const rigs = [...openRigs];
  openRigs.clear();
  for (const rig of rigs) await rig.close();
}

export async function startConsultRig(script: ResponsesScript, extraEnv: Record<string, string> = {}): Promise<ConsultRig> {
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run \`npm run build\` first (npm test does it)`);
  const server = await startScriptedResponses(script);
  const codex = await makeCodexHome(server.baseUrl);
  const stateDir = await mkdtemp(join(tmpdir(), 'parley-consult-state-'));
  const env = {
    ...(codex.env as Record<string, string>),
    PARLEY_STATE_DIR: stateDir,
    PARLEY_CODEX_PATH: CODEX_BIN,
    PARLEY_CONSULT_CWD: 'empty',
    PARLEY_CONSULT_TIMEOUT_MS: '30000',
    ...extraEnv,
  };
  // The server runs outside the state folder, so a test can see exactly what it writes there.
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER_ENTRY], env, cwd: dirname(codex.codexHome), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  const client = new Client({ name: 'consult-test', version: '0' });
  await client.connect(transport);

  const call = (name: string, args: Record<string, unknown> = {}, options?: RequestOptions) =>
    client.callTool({ name, arguments: args }, undefined, options) as Promise<CallToolResult>;
  const text = (result: CallToolResult) => (result.content as { text?: string }[]).map((c) => c.text ?? '').join('\n');
  const deliberationsDir = join(stateDir, 'deliberations');
  const rig: ConsultRig = {
    client,
    server,
    codex,
    stateDir,
    env,
    serverPid: transport.pid,
    call,
    async ok(name, args, options) {
      const result = await call(name, args, options);
      if (result.isError) throw new Error(`${name} was refused: ${text(result)}\nserver stderr: ${stderr.slice(-2000)}`);
      return result.structuredContent as never;
    },
    async refused(name, args) {
      const result = await call(name, args);
      if (!result.isError) throw new Error(`${name} was expected to be refused, got ${JSON.stringify(result.structuredContent)}`);
      return text(result);
    },
    async stateFile(id) {
      return JSON.parse(await readFile(join(deliberationsDir, `${id}.json`), 'utf8'));
    },
    async audit(id) {
      return parseAuditLines(await readFile(join(deliberationsDir, `${id}.audit.jsonl`), 'utf8'));
    },
    prompts: () => server.requests.map((r) => lastUserText(r.body)),
    async close() {
      openRigs.delete(rig);
      await client.close();
      await server.close();
      await codex.cleanup();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
  openRigs.add(rig);
  return rig;
}

/** The text of the last user message of a Responses request: the prompt of that turn. */
export function lastUserText(body: RequestBody): string {
  const users = ((body?.input ?? []) as any[]).filter((item) => item?.type === 'message' && item.role === 'user');
  const last = users[users.length - 1];
  return ((last?.content ?? []) as any[]).map((c) => (typeof c?.text === 'string' ? c.text : '')).join('');
}

/** Codex's per-turn metadata (thread id, sandbox mode, history initialization) of a recorded request. */
export function turnMetadata(body: RequestBody): Record<string, any> {
  return JSON.parse(String(body?.client_metadata?.['x-codex-turn-metadata'] ?? '{}'));
}
