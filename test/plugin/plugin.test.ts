/**
 * The packaging, checked with the real Claude Code and Codex CLIs in isolated homes: the manifests
 * validate, the commands the README gives register a server that connects, a marketplace install
 * from a clone (no node_modules, no build) starts the bundled server, and the JSON configuration for
 * other clients launches a working server.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { claudeBin, createClaudeHome, type ClaudeHome } from '../doubles/claude-home.js';
import { repoRoot } from './skill-files.js';

const codexBin = path.join(repoRoot, 'node_modules/.bin/codex');
const homes: ClaudeHome[] = [];
const folders: string[] = [];
afterAll(async () => {
  await Promise.all(homes.map((home) => home.remove()));
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

// No model is reached in these tests: an unroutable base URL makes any accidental request fail fast.
async function home(): Promise<ClaudeHome> {
  const created = await createClaudeHome('http://127.0.0.1:9');
  homes.push(created);
  return created;
}

async function claude(h: ClaudeHome, args: string[]) {
  return execa(claudeBin, args, { cwd: h.cwd, env: h.env, extendEnv: false, reject: false, input: '', timeout: 120_000 });
}

async function tempFolder(prefix: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

/** The README's "## Claude Code plugin" section, with /path/to/parley pointing at this checkout. */
async function readmeSection(): Promise<string> {
  const readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('## Claude Code plugin');
  expect(start).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 3);
  return readme.slice(start, end < 0 ? undefined : end).replaceAll('/path/to/parley/', `${repoRoot}/`);
}

function commandLine(section: string, prefix: string): string[] {
  const line = section.split('\n').find((l) => l.startsWith(prefix));
  if (!line) throw new Error(`README section has no line starting with "${prefix}"`);
  return line.split('#')[0]!.trim().split(/\s+/);
}

describe('claude plugin validate --strict', () => {
  it('passes on the repository (marketplace), its plugin manifest and the installable plugin/', async () => {
    const h = await home();
    for (const target of [repoRoot, path.join(repoRoot, '.claude-plugin/plugin.json'), path.join(repoRoot, 'plugin')]) {
      const run = await claude(h, ['plugin', 'validate', '--strict', target]);
      expect(run.exitCode, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain('✔ Validation passed');
    }
  });

  it('fails on a manifest with an invalid name (the check can fail)', async () => {
    const h = await home();
    const folder = await tempFolder('parley-bad-plugin-');
    await mkdir(path.join(folder, '.claude-plugin'));
    const manifest = JSON.parse(await readFile(path.join(repoRoot, '.claude-plugin/plugin.json'), 'utf8'));
    await writeFile(path.join(folder, '.claude-plugin/plugin.json'), JSON.stringify({ ...manifest, name: 'Parley Plugin!' }));
    const run = await claude(h, ['plugin', 'validate', '--strict', folder]);
    expect(run.exitCode).toBe(1);
  });
});

describe('claude mcp list', () => {
  it('shows parley ✔ Connected when registered as the README says', async () => {
    const h = await home();
    const add = commandLine(await readmeSection(), 'claude mcp add parley');
    const added = await claude(h, add.slice(1));
    expect(added.exitCode, added.stderr).toBe(0);
    const list = await claude(h, ['mcp', 'list']);
    expect(list.stdout).toMatch(/^parley: node \S+\/plugin\/parley-server\.mjs - ✔ Connected$/m);
  });

  it('shows the plugin server ✔ Connected after a marketplace install from a clone (no npm install, no build)', { timeout: 120_000 }, async () => {
    const h = await home();
    const clone = path.join(await tempFolder('parley-clone-'), 'parley');
    await execa('git', ['clone', '--quiet', repoRoot, clone]);
    const marketplace = await claude(h, ['plugin', 'marketplace', 'add', clone]);
    expect(marketplace.exitCode, marketplace.stderr).toBe(0);
    const install = await claude(h, ['plugin', 'install', 'parley@parley']);
    expect(install.exitCode, install.stderr).toBe(0);
    expect(install.stdout).toContain('Successfully installed plugin: parley@parley');
    // Claude Code runs `npm ci` in an installed plugin that has package.json and a lockfile: not in ours.
    const installed = JSON.parse(await readFile(path.join(h.configDir, 'plugins/installed_plugins.json'), 'utf8'));
    const installPath = JSON.stringify(installed).match(/"installPath":"([^"]+)"/)?.[1] ?? '';
    expect(existsSync(path.join(installPath, 'SKILL.md')) || existsSync(path.join(installPath, 'skills/parley/SKILL.md'))).toBe(true);
    expect(existsSync(path.join(installPath, 'package.json'))).toBe(false);
    expect(existsSync(path.join(installPath, 'node_modules'))).toBe(false);
    const list = await claude(h, ['mcp', 'list']);
    expect(list.stdout).toMatch(/^plugin:parley:parley: node \S+\/plugin\/parley-server\.mjs - ✔ Connected$/m);
  });
});

describe('other MCP clients, configured as the README says', () => {
  it('codex mcp add registers the bundled server in Codex', async () => {
    const root = await tempFolder('parley-codex-mcp-');
    const codexHome = path.join(root, 'home');
    await mkdir(codexHome);
    const add = commandLine(await readmeSection(), 'codex mcp add parley');
    const env = { ...process.env, CODEX_HOME: codexHome, TMPDIR: root };
    await execa(codexBin, add.slice(1), { env, timeout: 60_000 });
    const { stdout } = await execa(codexBin, ['mcp', 'list', '--json'], { env, timeout: 60_000 });
    const [server] = JSON.parse(stdout) as { name: string; transport: { command: string; args: string[] } }[];
    expect(server).toMatchObject({ name: 'parley', transport: { command: 'node', args: [path.join(repoRoot, 'plugin/parley-server.mjs')] } });
  });

  it('the JSON configuration (Claude Desktop, Cursor) launches a server that lists parley tools', async () => {
    const section = await readmeSection();
    const json = /```json\n([\s\S]*?)```/.exec(section)?.[1];
    const { parley } = JSON.parse(json ?? '{}').mcpServers as Record<string, { command: string; args: string[]; env: Record<string, string> }>;
    expect(parley?.command).toBe('node');
    const state = await tempFolder('parley-json-config-');
    const transport = new StdioClientTransport({ command: process.execPath, args: parley!.args, env: { ...parley!.env, PARLEY_STATE_DIR: state }, stderr: 'pipe' });
    const client = new Client({ name: 'json-config-test', version: '0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['delib_start', 'delib_consult', 'run_start']));
      // consult: false: no Codex is reachable here, and the state file is what this test is after.
      const started = await client.callTool({ name: 'delib_start', arguments: { question: 'Is this configuration enough?', mode: 'minimal', consult: false } });
      expect(started.isError).toBeFalsy();
      const id = (started.structuredContent as { deliberationId: string }).deliberationId;
      expect(JSON.parse(await readFile(path.join(state, 'deliberations', `${id}.json`), 'utf8'))).toBeTruthy();
    } finally {
      await client.close();
    }
  });
});
