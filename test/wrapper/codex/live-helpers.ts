import { resolve } from 'node:path';
import { afterEach } from 'vitest';
import { processesWithEnv } from '../../../wrapper/codex/process-tree.js';
import { makeCodexHome, type CodexHome } from '../../doubles/codex-home.js';
import { startScriptedResponses, type ResponsesScript, type ScriptedResponsesServer } from '../../doubles/scripted-responses.js';

/** The real binary from this project's node_modules. */
export const CODEX_BIN = resolve('node_modules/.bin/codex');

export interface LiveRig extends CodexHome {
  server: ScriptedResponsesServer;
}

const rigs: LiveRig[] = [];

/** A scripted Responses server plus an isolated CODEX_HOME pointing at it; torn down after each test. */
export async function startRig(script: ResponsesScript): Promise<LiveRig> {
  const server = await startScriptedResponses(script);
  const home = await makeCodexHome(server.baseUrl);
  const rig = { ...home, server };
  rigs.push(rig);
  return rig;
}

afterEach(async () => {
  for (const rig of rigs.splice(0)) {
    await rig.server.close();
    await rig.cleanup();
  }
});

/** Pids of live processes whose environment holds this CODEX_HOME: codex and anything it started. */
export const processesUsing = (codexHome: string): number[] => processesWithEnv('CODEX_HOME', codexHome);

/** Textual content of every input message of a recorded Responses request. */
export function inputText(body: { input?: unknown[] }): string {
  return JSON.stringify(body.input ?? []);
}

export async function until(condition: () => boolean, what: string, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
