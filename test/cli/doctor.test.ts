/**
 * `parley doctor` as a person runs it: the CLI from its sources in a child process, with an
 * environment the test controls (HOME, CODEX_HOME, CLAUDE_CONFIG_DIR, the state folder, keys and
 * endpoints). The healthy machine has a stored codex login, an installed plugin (installed by the
 * real Claude Code) and a scripted endpoint on 127.0.0.1; the broken one a missing codex, a missing
 * key, an endpoint that is down and a state folder it cannot write.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeFinding, claudeLoginFinding, keyFindings, nodeFinding, pluginFinding, renderHuman } from '../../cli/doctor-checks.js';
import { startScriptedChat } from '../doubles/scripted-chat.js';
import { startScriptedResponses } from '../doubles/scripted-responses.js';
import { localProviderConfig } from '../../wrapper/codex/local-provider.js';
import { runParley } from './run-parley.js';
import { closedPort } from '../doubles/http-helpers.js';

const repo = resolve(import.meta.dirname, '../..');
const claudeBin = join(repo, 'node_modules/.bin/claude');
const work = await mkdtemp(join(tmpdir(), 'parley-doctor-'));
afterAll(async () => {
  await chmod(join(work, 'readonly'), 0o755).catch(() => undefined);
  await rm(work, { recursive: true, force: true });
});

const doctor = (args: string[], env: NodeJS.ProcessEnv) => runParley(['doctor', ...args], { cwd: work, env, timeoutMs: 90_000 });

const PARLEY_KEY = 'parley-doctor-secret-key-0123456789';
const ANTHROPIC_KEY = 'anthropic-doctor-secret-key-9876543210';
const CODEX_KEY = 'sk-doctor-stored-login-5555555555';

/** A machine with nothing of the test process's but PATH. */
async function machine(name: string): Promise<{ home: string; configDir: string; codexHome: string; env: NodeJS.ProcessEnv }> {
  const root = join(work, name);
  const home = join(root, 'home');
  const configDir = join(home, '.claude');
  const codexHome = join(root, 'codex-home');
  await mkdir(configDir, { recursive: true });
  await mkdir(codexHome, { recursive: true });
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CLAUDE_CONFIG_DIR: configDir, CODEX_HOME: codexHome, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
  return { home, configDir, codexHome, env };
}

const lines = (text: string) => text.split('\n').map((line) => line.trim());
const statusLines = (text: string, status: string) => text.split('\n').filter((line) => line.startsWith(`${status} `));

describe('parley doctor on a healthy machine', () => {
  it('says ok to every check, names keys but never prints them, and exits 0', { timeout: 120_000 }, async () => {
    const m = await machine('healthy');
    // A stored codex login (what `codex login --with-api-key` writes) and the plugin installed by the real Claude Code.
    await writeFile(join(m.codexHome, 'auth.json'), JSON.stringify({ auth_mode: 'apikey', OPENAI_API_KEY: CODEX_KEY }));
    // Codex's provider answers where config.toml says it is.
    const provider = await startScriptedResponses([]);
    await writeFile(join(m.codexHome, 'config.toml'), localProviderConfig({ provider: 'local', name: 'local', model: 'fake-model', baseUrl: provider.baseUrl }));
    for (const args of [['plugin', 'marketplace', 'add', repo], ['plugin', 'install', 'parley@parley']]) {
      const ran = await execa(claudeBin, args, { cwd: m.home, env: m.env, extendEnv: false, reject: false, input: '', timeout: 60_000 });
      expect(ran.exitCode, ran.stderr).toBe(0);
    }
    const state = join(work, 'healthy', 'state');
    await mkdir(state);
    const chat = await startScriptedChat([]);
    try {
      const env = {
        ...m.env,
        PARLEY_CODEX_PATH: join(repo, 'node_modules/.bin/codex'),
        PARLEY_STATE_DIR: state,
        PARLEY_API_BASE_URL: chat.baseUrl,
        PARLEY_API_KEY: PARLEY_KEY,
        ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      };
      const ran = await doctor(['--model', `openai-compatible:${chat.baseUrl}#local-model`], env);
      expect(ran.code, ran.stdout + ran.stderr).toBe(0);
      expect(statusLines(ran.stdout, 'warn').concat(statusLines(ran.stdout, 'fail'))).toEqual([]);
      expect(ran.stdout).toMatch(/^ok +node +Node\.js \d+\.\d+\.\d+$/m);
      expect(ran.stdout).toMatch(new RegExp(`^ok +codex +codex-cli \\S+ at ${repo}/node_modules/\\.bin/codex$`, 'm'));
      expect(ran.stdout).toMatch(/^ok +codex login +logged in with an API key \(CODEX_HOME=.*codex-home\)$/m);
      expect(ran.stdout).toMatch(new RegExp(`^ok +codex provider +local at ${provider.baseUrl} reachable \\(HTTP 404\\)$`, 'm'));
      expect(ran.stdout).toMatch(/^ok +claude +Claude Code \d+\.\d+\.\d+ at \S+claude$/m);
      expect(ran.stdout).toMatch(/^ok +claude login +logged in \(api_key from ANTHROPIC_API_KEY\)$/m);
      expect(ran.stdout).toContain(`PARLEY_API_KEY set (for openai-compatible:${chat.baseUrl}#local-model)`);
      expect(ran.stdout).toMatch(new RegExp(`^ok +endpoint +${chat.baseUrl} \\(openai-compatible:\\S+\\) reachable \\(HTTP \\d{3}\\)$`, 'm'));
      expect(ran.stdout).toMatch(new RegExp(`^ok +state +${state} writable$`, 'm'));
      expect(ran.stdout).toMatch(/^ok +plugin +parley@parley 0\.1\.0 installed \(user scope\)$/m);
      expect(ran.stdout).toMatch(/^0 failed, 0 warning\(s\), 11 ok$/m);
      for (const secret of [PARLEY_KEY, ANTHROPIC_KEY, CODEX_KEY]) expect(ran.stdout + ran.stderr).not.toContain(secret);
      // The reachability probes carry no key, and ask nothing of the model.
      expect(chat.requests).toEqual([]);
      expect(provider.requests.map((request) => request.path)).toEqual(['/v1/models']);
    } finally {
      await chat.close();
      await provider.close();
    }
  });
});

describe('parley doctor with a logged-in codex that cannot reach its provider', () => {
  it('fails the provider check (nothing listens there, or its host does not resolve), with the fix, and exits 1', { timeout: 120_000 }, async () => {
    for (const [name, baseUrl, why] of [
      ['refused', `http://127.0.0.1:${await closedPort()}/v1`, 'connection refused'],
      ['nowhere', 'http://parley-nowhere.invalid/v1', 'host name not found'],
    ] as const) {
      const m = await machine(`provider-${name}`);
      await writeFile(join(m.codexHome, 'auth.json'), JSON.stringify({ auth_mode: 'apikey', OPENAI_API_KEY: CODEX_KEY }));
      await writeFile(join(m.codexHome, 'config.toml'), localProviderConfig({ provider: 'mine', name: 'mine', model: 'fake-model', baseUrl }));
      const ran = await doctor([], { ...m.env, PARLEY_CODEX_PATH: join(repo, 'node_modules/.bin/codex'), PARLEY_STATE_DIR: join(work, `provider-${name}`, 'state') });
      expect(ran.code, ran.stdout + ran.stderr).toBe(1);
      expect(ran.stdout).toMatch(/^ok +codex login +logged in with an API key/m);
      expect(lines(ran.stdout)).toContainEqual(expect.stringMatching(new RegExp(`^fail +codex provider +mine at ${baseUrl.replace(/[.]/g, '\\.')} unreachable: ${why}$`)));
      expect(lines(ran.stdout)).toContain(`fix: start the server at ${baseUrl}, or correct base_url of [model_providers.mine] in ${m.codexHome}/config.toml`);
    }
  });
});

describe('parley doctor on a broken machine', () => {
  it('fails the missing codex, key, endpoint and state folder, each with its fix, and exits 1', { timeout: 120_000 }, async () => {
    const m = await machine('broken');
    const port = await closedPort();
    const endpoint = `http://127.0.0.1:${port}/v1`;
    // Read-only for a normal user; root writes through modes, so for root a folder that cannot exist (under a file).
    let state: string;
    if (process.getuid?.() === 0) {
      await writeFile(join(work, 'broken', 'a-file'), '');
      state = join(work, 'broken', 'a-file', 'state');
    } else {
      await mkdir(join(work, 'readonly'));
      await chmod(join(work, 'readonly'), 0o555);
      state = join(work, 'readonly');
    }
    const env = { ...m.env, PARLEY_CODEX_PATH: join(work, 'no-such-dir', 'codex'), PARLEY_STATE_DIR: state, PARLEY_API_BASE_URL: endpoint };
    const ran = await doctor(['--model', 'openai:gpt-4.1'], env);
    expect(ran.code, ran.stdout + ran.stderr).toBe(1);
    const all = lines(ran.stdout);
    expect(ran.stdout).toMatch(new RegExp(`^fail +codex +codex binary not found at ${work}/no-such-dir/codex`, 'm'));
    expect(all).toContain('fix: point PARLEY_CODEX_PATH at an existing codex binary, or unset it to use codex from PATH');
    expect(ran.stdout).not.toMatch(/codex login/);
    expect(ran.stdout).toMatch(/^fail +key +OPENAI_API_KEY not set \(needed by openai:gpt-4\.1\)$/m);
    expect(all).toContain('fix: export OPENAI_API_KEY=<your key> in the environment parley runs in');
    // A spec whose key is missing is not probed: nothing goes to api.openai.com.
    expect(ran.stdout).not.toContain('api.openai.com');
    expect(ran.stdout).toMatch(new RegExp(`^fail +endpoint +${endpoint} \\(PARLEY_API_BASE_URL\\) unreachable: connection refused$`, 'm'));
    expect(all).toContain(`fix: start the server at ${endpoint}, or correct PARLEY_API_BASE_URL`);
    expect(ran.stdout).toMatch(/^warn +key +PARLEY_API_BASE_URL lists 1 endpoint\(s\) but PARLEY_API_KEY is not set$/m);
    expect(ran.stdout).toMatch(new RegExp(`^fail +state +${state} is not writable`, 'm'));
    expect(all).toContain(`fix: make ${state} a folder you can write to, or set PARLEY_STATE_DIR to one`);
    expect(ran.stdout).toMatch(/^warn +claude login +not logged in \(needed only for claude: models\)$/m);
    expect(ran.stdout).toMatch(/^warn +plugin +parley is not installed in Claude Code/m);
    expect(ran.stdout).toMatch(/^4 failed, 3 warning\(s\), 2 ok$/m);

    const json = await doctor(['--model', 'openai:gpt-4.1', '--json'], env);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { ok: boolean; summary: Record<string, number>; checks: { check: string; status: string; fix?: string }[] };
    expect(report.ok).toBe(false);
    expect(report.summary).toEqual({ ok: 2, warn: 3, fail: 4 });
    expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.check)).toEqual(['codex', 'key', 'endpoint', 'state']);
    expect(report.checks.filter((c) => c.status !== 'ok').every((c) => typeof c.fix === 'string' && c.fix.length > 0)).toBe(true);
  });
});

describe('the verdicts (pure)', () => {
  it('withholds a key from a spec URL outside PARLEY_API_BASE_URL, and says so', () => {
    const { findings, endpoints } = keyFindings(['openai-compatible:http://10.0.0.5:8000/v1#m'], { PARLEY_API_KEY: 'k'.repeat(20), PARLEY_API_BASE_URL: 'http://127.0.0.1:8000/v1' });
    expect(findings[0]).toMatchObject({ status: 'warn', message: 'PARLEY_API_KEY set but not sent to http://10.0.0.5:8000/v1 (not in PARLEY_API_BASE_URL)' });
    expect(endpoints.map((e) => e.url)).toEqual(['http://10.0.0.5:8000/v1', 'http://127.0.0.1:8000/v1']);
    expect(JSON.stringify(findings)).not.toContain('k'.repeat(20));
  });

  it('prints no user:password of a configured endpoint', () => {
    const { endpoints } = keyFindings([], { PARLEY_API_KEY: 'x'.repeat(12), PARLEY_API_BASE_URL: 'https://me:hunter2hunter2@llm.example/v1' });
    expect(endpoints).toEqual([{ url: 'https://llm.example/v1', source: 'PARLEY_API_BASE_URL' }]);
  });

  it('makes claude a failure only when a claude: model is configured', () => {
    expect(claudeFinding({ notFound: 'claude not found' }, false).status).toBe('warn');
    expect(claudeFinding({ notFound: 'claude not found' }, true).status).toBe('fail');
    const out = JSON.stringify({ loggedIn: false, authMethod: 'none', apiProvider: 'firstParty' });
    expect(claudeLoginFinding({ exitCode: 1, output: out }, true)).toMatchObject({ status: 'fail', fix: 'run `claude auth login`, or set ANTHROPIC_API_KEY' });
    expect(claudeLoginFinding({ exitCode: 0, output: 'Usage: claude [options]' }, true)).toMatchObject({ status: 'warn', message: expect.stringMatching(/^not checked/) });
  });

  it('tells an installed but disabled plugin, and an old Node, apart', () => {
    const registry = { plugins: { 'parley@parley': [{ scope: 'user', version: '0.1.0', installPath: '/x' }] } };
    expect(pluginFinding({ configDir: '/c', registry, settings: { enabledPlugins: { 'parley@parley': false } } })).toMatchObject({ status: 'warn', fix: 'claude plugin enable parley@parley' });
    expect(pluginFinding({ configDir: '/c', registry, installPathHasServer: false }).status).toBe('fail');
    expect(nodeFinding('v18.19.0')).toMatchObject({ status: 'fail', fix: 'install Node.js 20 or newer (https://nodejs.org)' });
  });

  it('renders one line per check and the fix under each non-ok one', () => {
    const text = renderHuman([
      { check: 'node', status: 'ok', message: 'Node.js 20.1.0' },
      { check: 'state', status: 'fail', message: '/s is not writable', fix: 'make /s writable' },
    ]);
    expect(text).toBe('ok    node   Node.js 20.1.0\nfail  state  /s is not writable\n             fix: make /s writable\n\n1 failed, 0 warning(s), 1 ok\n');
  });
});
