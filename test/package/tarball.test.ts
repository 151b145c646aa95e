/**
 * What a registry release would ship: `npm pack` of this checkout, installed into a scratch project
 * as a user would (`npm install <tarball>`, from npm's cache when it holds everything), then the
 * package's `parley` command and its MCP server over stdio with the real SDK client. The tarball is
 * also read for what must never ship: tests, state, secrets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { execa } from 'execa';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = resolve(import.meta.dirname, '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/**
 * The environment for npm itself: under `npm test` the parent npm exports its settings (npm_config_local_prefix
 * is this checkout, whose package.json an install must never touch); keep only where the cache and registry are.
 */
const KEEP_NPM = new Set(['npm_config_cache', 'npm_config_userconfig', 'npm_config_registry', 'npm_config_cafile']);
const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) || KEEP_NPM.has(key.toLowerCase())));
const npmOptions = { env: npmEnv, extendEnv: false } as const;

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string; size: number }[];
}

let work: string;
let packed: Packed;
let project: string;
let installed: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-tarball-'));
  if (!existsSync(join(root, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does it)');
  let started = Date.now();
  // --ignore-scripts: prepack would rebuild dist/ under the tests running from it; the build `npm test` made is packed as is
  // (prepack.test.ts packs a checkout without dist/).
  const pack = await execa(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { ...npmOptions, cwd: root, timeout: 60_000 });
  packed = (JSON.parse(pack.stdout) as Packed[])[0]!;
  const packSeconds = (Date.now() - started) / 1000;
  project = join(work, 'project');
  await mkdir(project);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'parley-tarball-check', version: '0.0.0', private: true }));
  started = Date.now();
  // --prefer-offline: npm's cache (filled by `npm ci`) serves what it has; the registry serves the rest.
  await execa(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', join(work, packed.filename)], { ...npmOptions, cwd: project, timeout: 120_000 });
  installed = join(project, 'node_modules/parley-mcp');
  console.log(
    `tarball ${packed.filename}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${packed.entryCount} files; ` +
      `npm pack ${packSeconds.toFixed(1)} s, npm install ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}, 180_000);
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds the entry, the built server and the skill, and nothing that must not ship', async () => {
    const paths = packed.files.map((file) => file.path);
    for (const needed of ['package.json', 'README.md', 'SKILL.md', 'plugin/parley-server.mjs', 'dist/cli/main.js', 'plugin/skills/parley/SKILL.md']) {
      expect(paths, needed).toContain(needed);
    }
    const forbidden = [
      /(^|\/)(test|tests|__tests__|test-output|coverage|bench|scripts|node_modules|\.git|\.ci)\//, // tests, tooling
      /\.(test|spec)\.[cm]?[jt]s(\.map)?$/,
      /(^|\/)skill\/evals\//, // evaluation cases and recorded model runs
      /(^|\/)(deliberations|runs)\//, /\.audit\.jsonl$/, /\.lock$/, /\.parley-test-/, // state
      /(^|\/)\.env/, /(^|\/)\.npmrc$/, /\.(pem|key|p12|pfx)$/, /(^|\/)id_(rsa|ed25519)/, // secrets
    ];
    const shipped = paths.filter((path) => forbidden.some((pattern) => pattern.test(path)));
    expect(shipped).toEqual([]);
    // A registry release is downloaded by every user: a stray folder (node_modules, test-output) would show here first.
    expect(packed.size).toBeLessThan(4 * 1024 * 1024);
  });

  it('carries no key, token or private key in any file', async () => {
    const secret = /sk-(proj-|ant-)?[A-Za-z0-9_-]{20,}|-----BEGIN [A-Z ]*PRIVATE KEY-----|gh[pousr]_[A-Za-z0-9]{36}|AKIA[0-9A-Z]{16}|xox[abprs]-[A-Za-z0-9-]{10,}|(API_KEY|TOKEN|SECRET)=[A-Za-z0-9_-]{16,}/;
    const found: string[] = [];
    for (const file of packed.files) {
      const text = await readFile(join(installed, file.path), 'utf8');
      const match = secret.exec(text);
      if (match) found.push(`${file.path}: ${match[0].slice(0, 12)}…`);
    }
    expect(found).toEqual([]);
    // The check reads what was installed: the same files as the tarball lists.
    expect(await countFiles(installed)).toBe(packed.entryCount);
  });

  it('installs a `parley` command that prints its help and version', async () => {
    const bin = await realpath(join(project, 'node_modules/.bin/parley'));
    expect(relative(installed, bin)).toBe('plugin/parley-server.mjs');
    const help = await execa(npx, ['--no-install', 'parley', '--help'], { ...npmOptions, cwd: project, timeout: 60_000 });
    expect(help.exitCode).toBe(0);
    for (const command of ['serve', 'tools', 'dialogic', 'debate', 'report', 'sweep']) expect(help.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
    expect((await execa(npx, ['--no-install', 'parley', '--version'], { ...npmOptions, cwd: project, timeout: 60_000 })).stdout.trim()).toBe(version);
  });

  it('serves MCP over stdio from the installed package: initialize and tools/list', async () => {
    const state = join(work, 'state');
    const transport = new StdioClientTransport({
      command: join(project, 'node_modules/.bin/parley'),
      cwd: project,
      env: { ...process.env, PARLEY_STATE_DIR: state } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'tarball-test', version: '0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe('parley');
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['delib_start', 'delib_judge', 'run_start', 'run_status']));
      const status = await client.callTool({ name: 'delib_status', arguments: {} });
      expect(status.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});

async function countFiles(dir: string): Promise<number> {
  let count = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) count += entry.name === 'node_modules' ? 0 : await countFiles(join(dir, entry.name));
    else if ((await stat(join(dir, entry.name))).isFile()) count += 1;
  }
  return count;
}
