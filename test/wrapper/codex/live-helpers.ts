import { readdirSync, readFileSync } from 'node:fs';
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

/**
 * Pids of live processes whose environment holds this CODEX_HOME (codex and what it started) or whose
 * command line names it: Codex's sandbox helpers run with an empty environment, and their command
 * lines name the home Codex hides from them and the folder their launcher lies in.
 */
export const processesUsing = (codexHome: string): number[] => [...new Set([...processesWithEnv('CODEX_HOME', codexHome), ...processesRunning(codexHome)])];

/** Live processes but this one whose command line (its arguments joined by spaces) holds `text`. */
export function processesRunning(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\u0000').join(' ').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

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
