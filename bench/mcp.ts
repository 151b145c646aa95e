import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { percentile } from './stats.js';

const root = resolve(import.meta.dirname, '..');

/** Spawn to initialize reply, in ms, for a command; median of `runs`. */
export async function coldStart(command: string, args: string[], env: NodeJS.ProcessEnv, runs = 15): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    await new Promise<void>((done, fail) => {
      child.stdout.once('data', () => done());
      child.once('error', fail);
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } } };
      child.stdin.write(JSON.stringify(init) + '\n');
    });
    times.push(performance.now() - started);
    child.kill();
  }
  return percentile(times, 50);
}

async function timeCalls(client: Client, name: string, args: (i: number) => Record<string, unknown>, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const result = await client.callTool({ name, arguments: args(i) });
    times.push(performance.now() - started);
    if (result.isError) throw new Error(`${name} failed in the benchmark: ${JSON.stringify(result.content)}`);
  }
  return times;
}

export async function benchMcp(): Promise<Record<string, number>> {
  const home = await mkdtemp(join(tmpdir(), 'parley-bench-'));
  const env = { ...process.env, PARLEY_STATE_DIR: home, PARLEY_BENCH_NOOP: '1' };
  // The bundle is what users launch (plugin, `parley` bin); dist/ is the unbundled build.
  const entry = join(root, 'plugin/parley-server.mjs');
  const figures: Record<string, number> = {};
  const baseline = await coldStart(process.execPath, [join(root, 'bench/baseline-server.mjs')], env);
  const bundled = await coldStart(process.execPath, [entry], env);
  const unbundled = await coldStart(process.execPath, [join(root, 'dist/cli/main.js')], env);
  figures['cold start to initialize reply: zero-dependency server (baseline) ms'] = baseline;
  figures['cold start: parley bundle (plugin/parley-server.mjs) ms'] = bundled;
  figures['cold start: parley bundle / baseline'] = bundled / baseline;
  figures['cold start: parley unbundled (dist/) ms'] = unbundled;
  const transport = new StdioClientTransport({ command: process.execPath, args: [entry], env: env as Record<string, string> });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  figures['tools/list tokens (chars/4, bench_noop excluded)'] = Math.round(JSON.stringify({ tools: tools.filter((t) => t.name !== 'bench_noop') }).length / 4);
  const started = await client.callTool({ name: 'delib_start', arguments: { question: 'Benchmark question?', mode: 'standard', consult: false } });
  const id = (started.structuredContent as { deliberationId: string }).deliberationId;
  await timeCalls(client, 'bench_noop', () => ({}), 200);
  const noop = await timeCalls(client, 'bench_noop', () => ({}), 2000);
  const read = await timeCalls(client, 'delib_status', () => ({ deliberationId: id }), 2000);
  const write = await timeCalls(client, 'delib_judge', (i) => ({ deliberationId: id, ledger: [{ action: 'add', text: `fact ${i}`, tag: 'user' }], consult: false }), 300);
  await client.close();
  await rm(home, { recursive: true, force: true });
  const noopP50 = percentile(noop, 50);
  for (const [label, times] of [['no-op tool', noop], ['read-only delib_status', read], ['state-changing delib_judge (durable write + audit line)', write]] as const) {
    figures[`${label} p50 ms`] = percentile(times, 50);
    figures[`${label} p99 ms`] = percentile(times, 99);
    if (times !== noop) figures[`${label} p50 / no-op p50`] = percentile(times, 50) / noopP50;
  }
  return figures;
}
