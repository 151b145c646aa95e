/**
 * SIGKILLs of the parley server mid-consult: each round starts the built server over stdio (real SDK
 * client) whose consult reaches the real codex binary, talking to the scripted Responses server;
 * the model answers with a tool call running a long `sleep`, so when the kill comes codex and its
 * sandboxed command are both running. Then it counts what is left: processes carrying the round's
 * CODEX_HOME in their environment (codex, and whatever it started) and the round's `sleep`.
 *
 *   node --import tsx scripts/soak/kill-mid-consult.ts [--kills 20]
 *
 * Linux only (/proc). Prints kill.consults and kill.codexLeft; exits 1 unless codexLeft is 0 and
 * every round was killed mid-consult. CI: test/wrapper/codex/kill-mid-consult.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeCodexHome } from '../../test/doubles/codex-home.js';
import { startScriptedResponses } from '../../test/doubles/scripted-responses.js';
import { killAll, processesWithEnv } from '../../wrapper/codex/process-tree.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRY = join(ROOT, 'dist/cli/main.js');
const CODEX_BIN = join(ROOT, 'node_modules/.bin/codex');

export interface KillResult {
  rounds: number;
  /** Rounds in which the kill came while codex ran its command (the consult was in flight). */
  consults: number;
  codexLeft: number;
  notes: string[];
  seconds: number;
}

/** Live processes whose command line contains `text` (Linux /proc). */
function processesRunning(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\u0000').join(' ').includes(text)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function until(condition: () => boolean, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
  return true;
}

async function killRound(round: number, notes: string[]): Promise<{ midConsult: boolean; left: number }> {
  // A marker no other process has: `sleep 1000.<pid><round>`.
  const marker = `sleep 1000.${process.pid}${String(round).padStart(3, '0')}`;
  const model = await startScriptedResponses(() => ({ toolCall: { command: marker.split(' ') } }));
  const codex = await makeCodexHome(model.baseUrl);
  const stateDir = await mkdtemp(join(tmpdir(), 'parley-kill-state-'));
  const env = { ...(codex.env as Record<string, string>), PARLEY_STATE_DIR: stateDir, PARLEY_CODEX_PATH: CODEX_BIN, PARLEY_CONSULT_CWD: 'empty' };
  const transport = new StdioClientTransport({ command: process.execPath, args: [ENTRY], env, cwd: dirname(codex.codexHome), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const client = new Client({ name: 'parley-kill', version: '0' });
  const ours = () => [...processesWithEnv('CODEX_HOME', codex.codexHome).filter((pid) => pid !== transport.pid), ...processesRunning(marker)];
  try {
    await client.connect(transport);
    const started = await client.callTool({ name: 'delib_start', arguments: { question: 'Ship today?', consult: { waitSeconds: 0 } } });
    if (started.isError) notes.push(`round ${round}: delib_start refused: ${JSON.stringify(started.content).slice(0, 300)}`);
    const midConsult = await until(() => processesRunning(marker).length > 0, 60_000);
    if (!midConsult) notes.push(`round ${round}: codex never ran its command; server stderr: ${stderr.slice(-500)}`);
    const serverPid = transport.pid!;
    process.kill(serverPid, 'SIGKILL');
    await until(() => processesRunning(ENTRY).every((pid) => pid !== serverPid), 10_000);
    // The watchdog notices the closed channel and ends codex and its command; give it a moment.
    await until(() => ours().length === 0, 10_000);
    const left = ours();
    if (left.length) notes.push(`round ${round}: left ${left.map((pid) => `${pid} ${readFileSafe(`/proc/${pid}/cmdline`).split('\u0000').join(' ').slice(0, 120)}`).join('; ')}`);
    killAll(left, 'SIGKILL');
    return { midConsult, left: left.length };
  } finally {
    await client.close().catch(() => undefined);
    await model.close();
    await codex.cleanup();
    await rm(stateDir, { recursive: true, force: true });
  }
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return '';
  }
}

export async function killMidConsult(kills: number, log: (line: string) => void = () => undefined): Promise<KillResult> {
  const started = performance.now();
  const result: KillResult = { rounds: 0, consults: 0, codexLeft: 0, notes: [], seconds: 0 };
  for (let round = 0; round < kills; round++) {
    const { midConsult, left } = await killRound(round, result.notes);
    result.rounds++;
    if (midConsult) result.consults++;
    result.codexLeft += left;
    log(`kill ${round + 1}/${kills}: ${midConsult ? 'mid-consult' : 'NOT mid-consult'}, ${left} left`);
  }
  result.seconds = Math.round(performance.now() - started) / 1000;
  return result;
}

export function formatKill(result: KillResult): string {
  return [`kill.consults ${result.consults}`, `kill.codexLeft ${result.codexLeft}`, `(${result.rounds} SIGKILLs, ${result.seconds} s)`, ...result.notes].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { kills: { type: 'string', default: '20' } } });
  const result = await killMidConsult(Number(values.kills), (line) => console.error(line));
  process.stdout.write(formatKill(result) + '\n');
  process.exitCode = result.codexLeft === 0 && result.consults === result.rounds ? 0 : 1;
}
