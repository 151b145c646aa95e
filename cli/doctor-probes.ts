/**
 * What `parley doctor` looks at: binaries (resolved as parley resolves them, run with --version),
 * logins (`codex login status`, `claude auth status`, both offline), the state folder (a probe file)
 * and Claude Code's plugin registry; endpoints through wrapper/endpoint-probe.ts. Every probe returns
 * what it saw; doctor-checks.ts judges it.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';
import { resolveClaudeBinary } from '../wrapper/claude-path.js';
import { passthroughEnv } from '../wrapper/cli-env.js';
import { codexEnvironment } from '../wrapper/codex/child-env.js';
import { resolveCodexPath, spawnTarget } from '../wrapper/codex/resolve-path.js';
import { codexLogin, type BinaryProbe, type CommandProbe, type PluginProbe, type StateProbe } from './doctor-checks.js';
import { codexProvider, readCodexConfig, type CodexProvider } from '../wrapper/codex/provider.js';
import { ENDPOINT_TIMEOUT_MS, probeEndpoint, type EndpointProbe } from '../wrapper/endpoint-probe.js';

const BINARY_TIMEOUT_MS = 15_000;
/** What the claude backend passes to claude (wrapper/claude-cli.ts). */
const CLAUDE_ENV_PREFIXES = ['ANTHROPIC_', 'CLAUDE_', 'DISABLE_', 'AWS_', 'GOOGLE_', 'CLOUD_ML_', 'VERTEX_', 'XDG_'];

async function run(path: string, args: string[], env: NodeJS.ProcessEnv): Promise<CommandProbe> {
  const { file, prefixArgs } = spawnTarget(path);
  try {
    const ran = await execa(file, [...prefixArgs, ...args], { env, extendEnv: false, reject: false, input: '', timeout: BINARY_TIMEOUT_MS });
    const output = ran.stdout + (ran.stderr ? `\n${ran.stderr}` : '');
    if (ran.timedOut) return { output, error: `no answer within ${BINARY_TIMEOUT_MS / 1000} s` };
    if (ran.exitCode === undefined) return { output, error: ran.shortMessage };
    return { exitCode: ran.exitCode, output };
  } catch (error) {
    return { output: '', error: error instanceof Error ? error.message : String(error) };
  }
}

async function probeVersion(resolved: { path?: string; notFound?: string }, env: NodeJS.ProcessEnv): Promise<BinaryProbe> {
  if (!resolved.path) return resolved;
  const ran = await run(resolved.path, ['--version'], env);
  const version = ran.exitCode === 0 ? ran.output.split('\n').find((line) => line.trim().length > 0 && !/^warning/i.test(line))?.trim() : undefined;
  if (version) return { path: resolved.path, version };
  return { path: resolved.path, runError: ran.error ?? `exit code ${ran.exitCode}: ${ran.output.trim().split('\n').slice(-1)[0] ?? ''}` };
}

/**
 * Runs codex with the environment parley gives it (codexEnvironment), reads its config.toml and, when
 * codex runs, probes the base URL of the provider it is configured with (no key sent).
 */
export async function probeCodex(env: NodeJS.ProcessEnv): Promise<{ binary: BinaryProbe; login?: CommandProbe; config: string; provider?: { provider: CodexProvider; probes: { url: string; probe: EndpointProbe }[] } }> {
  const childEnv = codexEnvironment(env);
  const config = readCodexConfig(codexEnvironment(env));
  const found = resolved(() => resolveCodexPath({ env }));
  const [binary, login] = await Promise.all([probeVersion(found, childEnv), found.path ? run(found.path, ['login', 'status'], childEnv) : undefined]);
  if (!binary.version || !login) return { binary, config: config.text };
  const provider = codexProvider(config, { login: codexLogin(login, childEnv) });
  const probes = await Promise.all(provider.urls.map(async (url) => ({ url, probe: await probeEndpoint(url, ENDPOINT_TIMEOUT_MS) })));
  return { binary, login, config: config.text, provider: { provider, probes } };
}

/** Runs claude with the environment the claude backend gives it. */
export async function probeClaude(env: NodeJS.ProcessEnv): Promise<{ binary: BinaryProbe; login?: CommandProbe }> {
  const childEnv = passthroughEnv(env, CLAUDE_ENV_PREFIXES);
  const found = resolved(() => resolveClaudeBinary({ env }));
  // Both at once: each claude start takes seconds in a fresh home.
  const [binary, login] = await Promise.all([probeVersion(found, childEnv), found.path ? run(found.path, ['auth', 'status', '--json'], childEnv) : undefined]);
  return binary.version && login ? { binary, login } : { binary };
}

function resolved(resolve: () => string): { path?: string; notFound?: string } {
  try {
    return { path: resolve() };
  } catch (error) {
    return { notFound: error instanceof Error ? error.message : String(error) };
  }
}

/** Writes and removes a probe file in the folder; a folder not yet made is judged by its nearest existing parent. */
export async function probeStateDir(dir: string): Promise<StateProbe> {
  let existing = dir;
  while (!exists(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const made = existing === dir;
  try {
    if (!statSync(existing).isDirectory()) return { dir, exists: made, writable: false, error: `${existing} is not a folder` };
    if (!made) {
      accessSync(existing, constants.W_OK | constants.X_OK);
      return { dir, exists: false, writable: true };
    }
    const probe = join(dir, `.parley-doctor-${process.pid}`);
    await writeFile(probe, '');
    await rm(probe, { force: true });
    return { dir, exists: true, writable: true };
  } catch (error) {
    const code = (error as { code?: string }).code;
    return { dir, exists: made, writable: false, error: code ?? (error instanceof Error ? error.message : String(error)) };
  }
}

/** Claude Code's plugin registry: <CLAUDE_CONFIG_DIR or ~/.claude>/plugins/installed_plugins.json. */
export async function probePlugin(env: NodeJS.ProcessEnv, pluginRoot?: string): Promise<PluginProbe> {
  const configDir = env.CLAUDE_CONFIG_DIR ? resolve(env.CLAUDE_CONFIG_DIR) : join(env.HOME || homedir(), '.claude');
  const registry = await readJson(join(configDir, 'plugins', 'installed_plugins.json'));
  const settings = await readJson(join(configDir, 'settings.json'));
  const plugins = (registry as { plugins?: Record<string, { installPath?: string }[]> } | undefined)?.plugins ?? {};
  const id = Object.keys(plugins).find((key) => key.startsWith('parley@'));
  const installPath = id ? plugins[id]?.[0]?.installPath : undefined;
  const probe: PluginProbe = { configDir, registry, settings };
  if (installPath) probe.installPathHasServer = holdsServer(installPath);
  if (pluginRoot && holdsServer(pluginRoot)) probe.loadedFrom = resolve(pluginRoot);
  return probe;
}

function holdsServer(folder: string): boolean {
  return exists(join(folder, 'parley-server.mjs')) || exists(join(folder, 'plugin', 'parley-server.mjs'));
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}
