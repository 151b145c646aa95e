import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = resolve(import.meta.dirname, '../..');
const entry = join(root, 'dist/cli/main.js');
let home: string;

beforeAll(async () => {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first (npm test does it)`);
  home = await mkdtemp(join(tmpdir(), 'parley-stdio-'));
});
afterAll(async () => rm(home, { recursive: true, force: true }));

describe('the built server over stdio', () => {
  it('answers the SDK client: tools, a deliberation persisted on disk, a bad id refused', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [entry], env: { ...process.env, PARLEY_STATE_DIR: home } as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'stdio-test', version: '0' });
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe('parley');
    expect(client.getInstructions()).toMatch(/delib_start/);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['delib_start', 'delib_status', 'run_start', 'run_status']));
    // consult: false: no Codex here (test/mcp-server/consult runs the real one against a scripted model server).
    const started = await client.callTool({ name: 'delib_start', arguments: { question: 'Should the cache be write-through?', mode: 'standard', consult: false } });
    expect(started.isError).toBeFalsy();
    const id = (started.structuredContent as { deliberationId: string }).deliberationId;
    const files = await readdir(join(home, 'deliberations'));
    expect(files).toContain(`${id}.json`);
    const bad = await client.callTool({ name: 'delib_status', arguments: { deliberationId: '../../etc/passwd' } });
    expect(bad.isError).toBe(true);
    await client.close();
  });

  it('answers the MCP Inspector CLI (tools/list and one tools/call)', async () => {
    const inspector = join(root, 'node_modules/.bin/mcp-inspector');
    const env = { ...process.env, PARLEY_STATE_DIR: home };
    const list = await execa(inspector, ['--cli', process.execPath, entry, '--method', 'tools/list'], { env, timeout: 60_000 });
    const tools = JSON.parse(list.stdout).tools as { name: string }[];
    expect(tools.map((tool) => tool.name)).toContain('delib_status');
    // delib_start would ask Codex at once (the CLI cannot pass consult: false): list the stored deliberations instead.
    const call = await execa(inspector, ['--cli', process.execPath, entry, '--method', 'tools/call', '--tool-name', 'delib_status'], { env, timeout: 60_000 });
    const result = JSON.parse(call.stdout);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.deliberations).toEqual(expect.any(Array));
  });

  it('answers the MCP Inspector command the README gives, run as written there', async () => {
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    const command = /<!-- inspector-command[^\n]*-->\n```sh\n(.+)\n```/.exec(readme)?.[1];
    expect(command, 'README.md lacks the inspector-command marker followed by a sh block').toMatch(/^npx @modelcontextprotocol\/inspector --cli /);
    const run = await execa(command!, { shell: true, cwd: root, env: { ...process.env, PARLEY_STATE_DIR: home }, timeout: 60_000 });
    const tools = JSON.parse(run.stdout).tools as { name: string }[];
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['delib_start', 'run_start']));
  });
});
