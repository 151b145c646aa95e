/**
 * Schema-driven fuzz of every tool against ONE built parley server (dist/cli/main.js over
 * stdio, the real SDK Client). Arguments come from each tool's inputSchema (scripts/soak/fuzz-args.ts),
 * mixed with the deliberation and run ids earlier calls returned so calls reach deep states. Codex is
 * a fake that records its argv and fails, so consults fail fast: the point is what reaches argv.
 *
 *   node --import tsx scripts/soak/fuzz-tools.ts [--calls 20000] [--seed 13] [--concurrency 4] [--timeout-ms 30000]
 *
 * Counts server exits (the transport closing; the server is then restarted), hangs (a call past its
 * timeout plus its own waitSeconds), results whose structuredContent the SDK client rejects against
 * the tool's outputSchema, and flags in a recorded codex argv that parley's argv builder
 * (wrapper/codex/argv.ts) does not emit. Exits 1 unless all four are 0. CI: test/mcp-server/fuzz-tools.test.ts.
 */
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { ArgGen, Rng, type JsonSchema } from './fuzz-args.js';

export interface FuzzOptions {
  calls: number;
  seed: number;
  concurrency: number;
  timeoutMs: number;
  hugeRate?: number;
  log?: (line: string) => void;
}

export interface FuzzResult {
  calls: number;
  exits: number;
  hangs: number;
  outputSchemaViolations: number;
  foreignFlags: number;
  /** Times parley started (the fake) codex, and tool results by kind: for reading the figures. */
  codexRuns: number;
  toolErrors: number;
  successes: number;
  otherErrors: number;
  deliberations: number;
  runs: number;
  examples: string[];
  seconds: number;
}

const ENTRY = resolve(import.meta.dirname, '../../dist/cli/main.js');
/** Every flag parley's argv builder emits (wrapper/codex/argv.ts); `exec` and `resume` are subcommands. */
const OWN_FLAGS = new Set(['--color', '-s', '-C', '--skip-git-repo-check', '--json', '-m', '-c', '--output-schema']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Flags in one codex argv that parley did not put there. */
export function foreignFlags(argv: string[]): string[] {
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  const positionals = end === -1 ? [] : argv.slice(end + 1);
  return [...options.filter((arg) => arg.startsWith('-') && !OWN_FLAGS.has(arg)), ...positionals.filter((arg) => arg !== '-' && !UUID.test(arg))];
}

const FAKE_CODEX = (argvDir: string) => `import { writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
writeFileSync(${JSON.stringify(argvDir)} + '/' + randomUUID() + '.json', JSON.stringify(process.argv.slice(2)));
process.stdout.write('nothing useful\\n');
process.exit(1);
`;

/** The largest waitSeconds anywhere at the top of the arguments or in their `consult`. */
function waitOf(args: unknown): number {
  const waits = [args, (args as { consult?: unknown } | null)?.consult].map((value) => (value as { waitSeconds?: unknown } | null)?.waitSeconds);
  return Math.max(0, ...waits.map((w) => (typeof w === 'number' && Number.isFinite(w) ? Math.min(w, 600) : 0)));
}

export async function fuzzTools(options: FuzzOptions): Promise<FuzzResult> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const dir = await mkdtemp(join(tmpdir(), 'parley-fuzz-'));
  const argvDir = join(dir, 'argv');
  const work = join(dir, 'work');
  await Promise.all([mkdir(argvDir), mkdir(work), mkdir(join(dir, 'home')), mkdir(join(dir, 'tmp'))]);
  const fake = join(dir, 'codex.mjs');
  await writeFile(fake, FAKE_CODEX(argvDir));
  await chmod(fake, 0o755);
  // No keys, no user config, no PATH to other model CLIs: nothing leaves the machine.
  const env = { PATH: '/usr/bin:/bin', HOME: join(dir, 'home'), TMPDIR: join(dir, 'tmp'), PARLEY_STATE_DIR: join(dir, 'state'), PARLEY_CODEX_PATH: fake };

  const result: FuzzResult = { calls: 0, exits: 0, hangs: 0, outputSchemaViolations: 0, foreignFlags: 0, codexRuns: 0, toolErrors: 0, successes: 0, otherErrors: 0, deliberations: 0, runs: 0, examples: [], seconds: 0 };
  const example = (line: string) => {
    if (result.examples.length < 20) result.examples.push(line.slice(0, 400));
  };

  let stderr = '';
  let closing = false;
  let client!: Client;
  let tools: Tool[] = [];
  let ready: Promise<void> = Promise.resolve();
  const connect = async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [ENTRY], env, cwd: work, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    const next = new Client({ name: 'parley-fuzz', version: '0' });
    next.onclose = () => {
      if (closing || next !== client) return;
      result.exits++;
      example(`server exit after ${result.calls} calls; stderr: ${stderr.slice(-1000)}`);
      ready = connect();
    };
    client = next;
    await next.connect(transport);
    // listTools makes the client validate every later structuredContent against its outputSchema.
    tools = (await next.listTools()).tools;
  };
  await connect();

  const rng = new Rng(options.seed);
  const gen = new ArgGen(rng, options.hugeRate);
  const weights: [string, number][] = tools.map((tool) => [tool.name, tool.name.startsWith('delib_') ? 3 : 1]);
  const pickTool = () => {
    let r = rng.next() * weights.reduce((sum, [, w]) => sum + w, 0);
    for (const [name, w] of weights) if ((r -= w) < 0) return tools.find((tool) => tool.name === name)!;
    return tools[0]!;
  };
  const harvest = (value: unknown) => {
    const top = value as Record<string, unknown> | undefined;
    const content = { ...(top?.run as object | undefined), ...top };
    for (const [key, pool] of [['deliberationId', gen.deliberationIds], ['runId', gen.runIds]] as const) {
      const id = (content as Record<string, unknown>)[key];
      if (typeof id === 'string' && !pool.includes(id)) pool.push(id);
    }
  };

  let issued = 0;
  const worker = async () => {
    while (issued < options.calls) {
      issued++;
      const tool = pickTool();
      const args = gen.args(tool.name, tool.inputSchema as JsonSchema);
      await ready;
      const timeout = options.timeoutMs + waitOf(args) * 1000;
      try {
        const reply = (await client.callTool({ name: tool.name, arguments: args as Record<string, unknown> }, undefined, { timeout, maxTotalTimeout: timeout })) as CallToolResult;
        if (reply.isError) result.toolErrors++;
        else result.successes++;
        harvest(reply.structuredContent);
      } catch (error) {
        const code = error instanceof McpError ? error.code : undefined;
        const message = error instanceof Error ? error.message : String(error);
        if (code === ErrorCode.RequestTimeout) {
          result.hangs++;
          example(`hang: ${tool.name} ${JSON.stringify(args).slice(0, 300)}`);
        } else if (/output schema|structured content/i.test(message)) {
          result.outputSchemaViolations++;
          example(`outputSchema: ${tool.name} ${message.slice(0, 200)} args ${JSON.stringify(args).slice(0, 200)}`);
        } else if (code !== ErrorCode.ConnectionClosed) {
          result.otherErrors++;
          // Arguments that are not an object are refused by the SDK's request schema: expected, not worth an example.
          if (!/expected record/.test(message)) example(`other: ${tool.name} ${message.slice(0, 200)}`);
        }
      }
      result.calls++;
      if (result.calls % 1000 === 0) log(`fuzz: ${result.calls} calls, ${gen.deliberationIds.length} deliberations, ${Math.round(performance.now() - started) / 1000} s`);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    // Consults and runs may still be starting codex: let them finish before the argv are read.
    await new Promise((done) => setTimeout(done, 2000));
    await ready;
    await client.ping({ timeout: options.timeoutMs }).catch((error: unknown) => {
      result.hangs++;
      example(`server not answering a ping at the end: ${String(error)}`);
    });
    closing = true;
    await client.close();
    for (const file of await readdir(argvDir)) {
      const argv = JSON.parse(await readFile(join(argvDir, file), 'utf8')) as string[];
      result.codexRuns++;
      const foreign = foreignFlags(argv);
      if (foreign.length) {
        result.foreignFlags += foreign.length;
        example(`foreign flags ${JSON.stringify(foreign)} in ${JSON.stringify(argv).slice(0, 300)}`);
      }
    }
    result.deliberations = gen.deliberationIds.length;
    result.runs = gen.runIds.length;
    result.seconds = Math.round(performance.now() - started) / 1000;
    return result;
  } finally {
    closing = true;
    await client.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

export function formatFuzz(result: FuzzResult, options: FuzzOptions): string {
  return [
    `fuzz.calls ${result.calls}`,
    `fuzz.exits ${result.exits}`,
    `fuzz.hangs ${result.hangs}`,
    `fuzz.outputSchemaViolations ${result.outputSchemaViolations}`,
    `fuzz.foreignFlags ${result.foreignFlags}`,
    `(seed ${options.seed}, concurrency ${options.concurrency}, ${result.seconds} s; ${result.successes} results, ${result.toolErrors} tool errors, ` +
      `${result.otherErrors} other errors; ${result.deliberations} deliberations, ${result.runs} runs, ${result.codexRuns} codex argv recorded)`,
    ...result.examples,
  ].join('\n');
}

export const fuzzFailures = (result: FuzzResult) => result.exits + result.hangs + result.outputSchemaViolations + result.foreignFlags;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      calls: { type: 'string', default: '20000' },
      seed: { type: 'string', default: '13' },
      concurrency: { type: 'string', default: '4' },
      'timeout-ms': { type: 'string', default: '30000' },
    },
  });
  const options: FuzzOptions = {
    calls: Number(values.calls),
    seed: Number(values.seed),
    concurrency: Number(values.concurrency),
    timeoutMs: Number(values['timeout-ms']),
    log: (line) => console.error(line),
  };
  const result = await fuzzTools(options);
  process.stdout.write(formatFuzz(result, options) + '\n');
  process.exitCode = fuzzFailures(result) === 0 ? 0 : 1;
}
