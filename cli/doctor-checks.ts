/**
 * `parley doctor`'s verdicts: pure functions from what the probes saw (doctor-probes.ts) to one
 * finding per check, each non-ok one with the fix. Nothing here reads a secret's value: keys are
 * named by their variable only.
 */
import { KEY_ENDPOINTS_ENV, isConfiguredEndpoint } from '../wrapper/key-scope.js';
import { parseModelSpec } from '../wrapper/parse-spec.js';
import { presetFor } from '../wrapper/presets.js';
import { modelNotServed, unreachableFix, type EndpointProbe } from '../wrapper/endpoint-probe.js';
import type { CodexLogin, CodexProvider } from '../wrapper/codex/provider.js';

export type Status = 'ok' | 'warn' | 'fail';

export interface Finding {
  check: string;
  status: Status;
  message: string;
  fix?: string;
}

export interface BinaryProbe {
  /** The resolved path; absent when resolution failed. */
  path?: string;
  /** Why resolution failed (the resolver's message). */
  notFound?: string;
  /** First line of `--version`. */
  version?: string;
  /** Why `--version` did not run. */
  runError?: string;
}

export interface CommandProbe {
  exitCode?: number;
  output: string;
  error?: string;
}


export interface StateProbe {
  dir: string;
  exists: boolean;
  writable: boolean;
  error?: string;
}

export interface PluginProbe {
  configDir: string;
  /** installed_plugins.json, parsed; undefined when absent or unreadable. */
  registry?: unknown;
  /** settings.json, parsed. */
  settings?: unknown;
  /** Whether the entry's install folder holds the bundled server. */
  installPathHasServer?: boolean;
  /** The plugin folder doctor runs from (`--plugin-root`), when it holds the server. */
  loadedFrom?: string;
}

export const MIN_NODE_MAJOR = 20;
const CODEX_INSTALL = 'npm install -g @openai/codex';
const CLAUDE_INSTALL = 'npm install -g @anthropic-ai/claude-code';

export function nodeFinding(version: string): Finding {
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  if (major >= MIN_NODE_MAJOR) return { check: 'node', status: 'ok', message: `Node.js ${version.replace(/^v/, '')}` };
  return { check: 'node', status: 'fail', message: `Node.js ${version.replace(/^v/, '')} is too old (parley needs ${MIN_NODE_MAJOR} or newer)`, fix: `install Node.js ${MIN_NODE_MAJOR} or newer (https://nodejs.org)` };
}

export function codexFinding(probe: BinaryProbe, env: NodeJS.ProcessEnv): Finding {
  if (!probe.path) {
    const fix = env.PARLEY_CODEX_PATH
      ? 'point PARLEY_CODEX_PATH at an existing codex binary, or unset it to use codex from PATH'
      : `install Codex: ${CODEX_INSTALL} (or set PARLEY_CODEX_PATH to the codex binary)`;
    return { check: 'codex', status: 'fail', message: probe.notFound ?? 'codex binary not found', fix };
  }
  if (!probe.version) return { check: 'codex', status: 'fail', message: `codex at ${probe.path} does not run: ${probe.runError ?? 'no version printed'}`, fix: `reinstall Codex: ${CODEX_INSTALL}` };
  return { check: 'codex', status: 'ok', message: `${probe.version} at ${probe.path}` };
}

/**
 * `codex login status`: exit 0 when a login (ChatGPT or API key) is stored in CODEX_HOME. Without
 * one, codex still authenticates with CODEX_API_KEY or OPENAI_API_KEY, or through a model_provider
 * of the user's own in config.toml (the same rule as wrapper/readiness.ts).
 */
export function codexLoginFinding(probe: CommandProbe, env: NodeJS.ProcessEnv, config = ''): Finding {
  const where = env.CODEX_HOME ? ` (CODEX_HOME=${env.CODEX_HOME})` : '';
  const envKey = ['CODEX_API_KEY', 'OPENAI_API_KEY'].find((name) => env[name]);
  if (probe.exitCode !== 0 && envKey) return { check: 'codex login', status: 'ok', message: `no stored login; codex uses ${envKey} (set)` };
  if (probe.exitCode !== 0 && /^\s*model_provider\s*=/m.test(config)) return { check: 'codex login', status: 'ok', message: `no stored login; config.toml names its own model_provider${where}` };
  if (probe.error) return { check: 'codex login', status: 'warn', message: `not checked: \`codex login status\` failed: ${probe.error}`, fix: 'run `codex login status` yourself to see why' };
  if (probe.exitCode === 0) {
    const how = /chatgpt/i.test(probe.output) ? ' with ChatGPT' : /api key/i.test(probe.output) ? ' with an API key' : '';
    return { check: 'codex login', status: 'ok', message: `logged in${how}${where}` };
  }
  return { check: 'codex login', status: 'fail', message: `not logged in${where}`, fix: 'run `codex login` (or `printenv OPENAI_API_KEY | codex login --with-api-key`)' };
}

/** How codex authenticates, as far as `codex login status` and the environment tell (it picks the provider's URL). */
export function codexLogin(probe: CommandProbe, env: NodeJS.ProcessEnv): CodexLogin {
  if (probe.exitCode === 0 && /chatgpt/i.test(probe.output)) return 'chatgpt';
  if (probe.exitCode === 0 && /api key/i.test(probe.output)) return 'api-key';
  return env.CODEX_API_KEY || env.OPENAI_API_KEY ? 'api-key' : undefined;
}

/**
 * Whether the model provider Codex is configured with answers at its base URL (a GET of /models, no
 * key sent): a login is no use when Codex cannot reach the provider, and Codex itself would retry
 * for as long as it is let.
 */
export function codexProviderFinding(provider: CodexProvider, probes: readonly { url: string; probe: EndpointProbe }[]): Finding {
  const check = 'codex provider';
  if (probes.length === 0) return { check, status: 'warn', message: `not checked: model_provider ${provider.id} has no base_url parley can read`, fix: `give [model_providers.${provider.id}] a base_url (${provider.where})` };
  const down = probes.find(({ probe }) => probe.status === undefined);
  if (down) return { check, status: 'fail', message: `${provider.id} at ${down.url} unreachable: ${down.probe.error ?? 'no answer'}`, fix: unreachableFix(down.url, provider.id, provider.where) };
  return { check, status: 'ok', message: probes.map(({ url, probe }) => `${provider.id} at ${url} reachable (HTTP ${probe.status})`).join('; ') };
}

export function claudeFinding(probe: BinaryProbe, required: boolean): Finding {
  const status: Status = required ? 'fail' : 'warn';
  const need = required ? '' : ' (needed only for claude: models)';
  if (!probe.path) return { check: 'claude', status, message: `${probe.notFound ?? 'claude not found'}${need}`, fix: `install Claude Code: ${CLAUDE_INSTALL} (or set PARLEY_CLAUDE_PATH to the claude binary)` };
  if (!probe.version) return { check: 'claude', status, message: `claude at ${probe.path} does not run: ${probe.runError ?? 'no version printed'}`, fix: `reinstall Claude Code: ${CLAUDE_INSTALL}` };
  return { check: 'claude', status: 'ok', message: `Claude Code ${probe.version.replace(/\s*\(Claude Code\)\s*$/, '')} at ${probe.path}` };
}

/** `claude auth status --json` (offline): {loggedIn, authMethod, apiKeySource?}. */
export function claudeLoginFinding(probe: CommandProbe, required: boolean): Finding {
  let parsed: { loggedIn?: unknown; authMethod?: unknown; apiKeySource?: unknown; apiProvider?: unknown } | undefined;
  try {
    parsed = JSON.parse(/\{[\s\S]*\}/.exec(probe.output)?.[0] ?? '') as typeof parsed;
  } catch {
    parsed = undefined;
  }
  if (probe.error || typeof parsed?.loggedIn !== 'boolean') {
    return { check: 'claude login', status: 'warn', message: `not checked: \`claude auth status --json\` gave no answer parley can read${probe.error ? ` (${probe.error})` : ''}`, fix: 'run `claude auth status` yourself' };
  }
  if (!parsed.loggedIn && typeof parsed.apiProvider === 'string' && parsed.apiProvider !== 'firstParty') {
    return { check: 'claude login', status: 'ok', message: `uses ${parsed.apiProvider} credentials` };
  }
  if (parsed.loggedIn) {
    const source = typeof parsed.apiKeySource === 'string' ? ` from ${parsed.apiKeySource}` : '';
    return { check: 'claude login', status: 'ok', message: `logged in (${String(parsed.authMethod)}${source})` };
  }
  return { check: 'claude login', status: required ? 'fail' : 'warn', message: `not logged in${required ? '' : ' (needed only for claude: models)'}`, fix: 'run `claude auth login`, or set ANTHROPIC_API_KEY' };
}

/** An endpoint the user configured: a spec's base URL (given to doctor) or an entry of PARLEY_API_BASE_URL. */
export interface ConfiguredEndpoint {
  url: string;
  /** Where it came from: the spec, or PARLEY_API_BASE_URL. */
  source: string;
  provider?: string;
  /** The model the spec names there: checked against the endpoint's own list when it has one. */
  model?: string;
}

/** The specs' key findings and the endpoints worth probing (a spec whose key is missing is not probed). */
export function keyFindings(specs: readonly string[], env: NodeJS.ProcessEnv): { findings: Finding[]; endpoints: ConfiguredEndpoint[] } {
  const findings: Finding[] = [];
  const endpoints: ConfiguredEndpoint[] = [];
  const configured = env[KEY_ENDPOINTS_ENV];
  for (const spec of specs) {
    let parsed: ReturnType<typeof parseModelSpec>;
    try {
      parsed = parseModelSpec(spec);
    } catch (error) {
      findings.push({ check: 'model', status: 'fail', message: error instanceof Error ? error.message : String(error), fix: 'correct the spec (see the Models table in the README)' });
      continue;
    }
    const preset = presetFor(parsed.provider);
    if (!preset) continue; // codex and claude: their own logins are checked above
    const url = parsed.baseUrl ?? preset.baseUrl;
    const keyEnv = preset.keyEnv;
    const hasKey = keyEnv !== undefined && Boolean(env[keyEnv]);
    if (keyEnv && !hasKey && preset.keyRequired) {
      findings.push({ check: 'key', status: 'fail', message: `${keyEnv} not set (needed by ${spec})`, fix: `export ${keyEnv}=<your key> in the environment parley runs in` });
      continue;
    }
    if (parsed.baseUrl && keyEnv && hasKey && !isConfiguredEndpoint(parsed.baseUrl, configured)) {
      findings.push({ check: 'key', status: 'warn', message: `${keyEnv} set but not sent to ${parsed.baseUrl} (not in ${KEY_ENDPOINTS_ENV})`, fix: `add ${parsed.baseUrl} to ${KEY_ENDPOINTS_ENV} (comma-separated) if the key is for it` });
    } else if (keyEnv && hasKey) {
      findings.push({ check: 'key', status: 'ok', message: `${keyEnv} set (for ${spec})` });
    } else {
      findings.push({ check: 'key', status: 'ok', message: `${spec} needs no key${keyEnv ? ` (${keyEnv} optional)` : ''}` });
    }
    if (url) endpoints.push({ url, source: spec, provider: parsed.provider, model: parsed.model });
  }
  const listed = listedEndpoints(configured);
  if (listed.length > 0 && !env.PARLEY_API_KEY) {
    findings.push({ check: 'key', status: 'warn', message: `${KEY_ENDPOINTS_ENV} lists ${listed.length} endpoint(s) but PARLEY_API_KEY is not set`, fix: `export PARLEY_API_KEY=<your key>, or unset ${KEY_ENDPOINTS_ENV} if those endpoints need no key` });
  } else if (listed.length === 0 && env.PARLEY_API_KEY) {
    findings.push({ check: 'key', status: 'warn', message: `PARLEY_API_KEY set but ${KEY_ENDPOINTS_ENV} lists no endpoint, so it is never sent`, fix: `set ${KEY_ENDPOINTS_ENV} to the base URL(s) the key belongs to` });
  } else if (listed.length > 0) {
    findings.push({ check: 'key', status: 'ok', message: `PARLEY_API_KEY set (for the ${listed.length} endpoint(s) in ${KEY_ENDPOINTS_ENV})` });
  }
  for (const url of listed) endpoints.push({ url, source: KEY_ENDPOINTS_ENV });
  if (findings.length === 0) findings.push({ check: 'key', status: 'ok', message: 'no API model configured (codex and claude use their own logins; --model <spec> checks one)' });
  return { findings, endpoints: dedupe(endpoints) };
}

/** PARLEY_API_BASE_URL's http(s) entries, without any user:password part. */
export function listedEndpoints(configured: string | undefined): string[] {
  const urls: string[] = [];
  for (const entry of (configured ?? '').split(/[\s,]+/)) {
    if (!entry) continue;
    try {
      const url = new URL(entry);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
      url.username = '';
      url.password = '';
      urls.push(url.href.replace(/\/+$/, ''));
    } catch {
      // not a URL: key-scope ignores it too
    }
  }
  return urls;
}

/** Each endpoint once, but once per model the specs name there: each is looked for in its list. */
function dedupe(endpoints: ConfiguredEndpoint[]): ConfiguredEndpoint[] {
  const kept: ConfiguredEndpoint[] = [];
  for (const endpoint of endpoints) {
    const url = endpoint.url.replace(/\/+$/, '');
    const known = kept.some((other) => other.url === url && (endpoint.model === undefined || other.model === endpoint.model));
    if (!known) kept.push({ ...endpoint, url });
  }
  return kept;
}

export function endpointFinding(endpoint: ConfiguredEndpoint, probe: EndpointProbe): Finding {
  const label = `${endpoint.url} (${endpoint.source})`;
  const notServed = endpoint.model === undefined ? undefined : modelNotServed(endpoint.url, probe, endpoint.model, `the spec ${endpoint.source}`);
  if (notServed) return { check: 'endpoint', status: 'fail', message: notServed.problem, fix: notServed.fix };
  if (probe.status !== undefined) return { check: 'endpoint', status: 'ok', message: `${label} reachable (HTTP ${probe.status})` };
  const where = endpoint.source === KEY_ENDPOINTS_ENV ? KEY_ENDPOINTS_ENV : `the spec ${endpoint.source}`;
  const fix = unreachableFix(endpoint.url, endpoint.provider, where);
  return { check: 'endpoint', status: 'fail', message: `${label} unreachable: ${probe.error ?? 'no answer'}`, fix };
}

export function stateFinding(probe: StateProbe): Finding {
  if (probe.writable) return { check: 'state', status: 'ok', message: `${probe.dir} writable${probe.exists ? '' : ' (created on first use)'}` };
  return {
    check: 'state',
    status: 'fail',
    message: `${probe.dir} is not writable${probe.error ? `: ${probe.error}` : ''}`,
    fix: `make ${probe.dir} a folder you can write to, or set PARLEY_STATE_DIR to one`,
  };
}

interface InstalledEntry {
  scope?: string;
  version?: string;
  installPath?: string;
}

export function pluginFinding(probe: PluginProbe): Finding {
  const plugins = (probe.registry as { plugins?: Record<string, InstalledEntry[]> } | undefined)?.plugins ?? {};
  const id = Object.keys(plugins).find((key) => key.startsWith('parley@'));
  const install = 'in Claude Code: `/plugin marketplace add <owner>/parley` then `/plugin install parley@parley` (or `claude --plugin-dir /path/to/parley` for a checkout)';
  if (!id && probe.loadedFrom) return { check: 'plugin', status: 'ok', message: `loaded from ${probe.loadedFrom} (not installed from a marketplace)` };
  if (!id) return { check: 'plugin', status: 'warn', message: `parley is not installed in Claude Code (${probe.configDir})`, fix: install };
  const entry = plugins[id]?.[0] ?? {};
  const enabled = (probe.settings as { enabledPlugins?: Record<string, unknown> } | undefined)?.enabledPlugins?.[id];
  if (enabled === false) return { check: 'plugin', status: 'warn', message: `${id} is installed but disabled`, fix: `claude plugin enable ${id}` };
  if (probe.installPathHasServer === false) return { check: 'plugin', status: 'fail', message: `${id} is installed but ${entry.installPath ?? 'its folder'} holds no parley-server.mjs`, fix: `reinstall it: claude plugin uninstall ${id} && claude plugin install ${id}` };
  return { check: 'plugin', status: 'ok', message: `${id} ${entry.version ?? ''} installed (${entry.scope ?? 'user'} scope)`.replace(/\s+/g, ' ') };
}

export function summary(findings: readonly Finding[]): Record<Status, number> {
  const counts: Record<Status, number> = { ok: 0, warn: 0, fail: 0 };
  for (const finding of findings) counts[finding.status]++;
  return counts;
}

/** One line per check (`ok`, `warn`, `fail`), the fix under each non-ok one, then the counts. */
export function renderHuman(findings: readonly Finding[]): string {
  const width = Math.max(...findings.map((finding) => finding.check.length));
  const lines = findings.flatMap((finding) => {
    const line = `${finding.status.padEnd(4)}  ${finding.check.padEnd(width)}  ${finding.message}`;
    return finding.fix && finding.status !== 'ok' ? [line, `${' '.repeat(width + 8)}fix: ${finding.fix}`] : [line];
  });
  const counts = summary(findings);
  lines.push('', `${counts.fail} failed, ${counts.warn} warning(s), ${counts.ok} ok`);
  return lines.join('\n') + '\n';
}
