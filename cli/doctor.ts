import type { Command } from 'commander';
import { rememberSecretsOf } from '../schemas/secrets.js';
import { printOut } from './terminal.js';
import { stateHome } from '../state/paths.js';
import { PARLEY_VERSION } from '../mcp-server/version.js';
import {
  claudeFinding,
  claudeLoginFinding,
  codexFinding,
  codexLoginFinding,
  codexProviderFinding,
  endpointFinding,
  keyFindings,
  nodeFinding,
  pluginFinding,
  renderHuman,
  stateFinding,
  summary,
  type Finding,
} from './doctor-checks.js';
import { probeClaude, probeCodex, probePlugin, probeStateDir } from './doctor-probes.js';
import { ENDPOINT_TIMEOUT_MS, probeEndpoint } from '../wrapper/endpoint-probe.js';

interface DoctorOptions {
  json?: boolean;
  model: string[];
  stateDir?: string;
  pluginRoot?: string;
}

/** `parley doctor [--model <spec>]... [--json]`: exit 1 when any check fails. */
export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('check what parley needs: node, codex and claude (binaries, logins), API keys and endpoints, the state folder, the Claude Code plugin')
    .option('--model <spec>', 'a model spec you mean to use (repeatable): checks its key and endpoint', (spec: string, all: string[]) => [...all, spec], [] as string[])
    .option('--state-dir <dir>', 'the state folder to check (default: PARLEY_STATE_DIR, else the default folder); the plugin passes its data folder')
    .option('--plugin-root <dir>', 'the plugin folder this runs from (the plugin passes it): counts as loaded when not installed')
    .option('--json', 'print the findings as JSON')
    .action(async (options: DoctorOptions) => {
      const env = options.stateDir ? { ...process.env, PARLEY_STATE_DIR: options.stateDir } : process.env;
      const findings = await runDoctor(env, options.model, options.pluginRoot);
      const counts = summary(findings);
      const text = options.json
        ? JSON.stringify({ version: PARLEY_VERSION, ok: counts.fail === 0, summary: counts, checks: findings }, null, 2) + '\n'
        : renderHuman(findings);
      // A key that leaked into a binary's message is scrubbed like everywhere else.
      printOut(text);
      if (counts.fail > 0) process.exitCode = 1;
    });
}

export async function runDoctor(env: NodeJS.ProcessEnv, specs: readonly string[], pluginRoot?: string): Promise<Finding[]> {
  rememberSecretsOf(env);
  const keys = keyFindings(specs, env);
  const claudeRequired = specs.some((spec) => /^claude(:|$)/.test(spec.trim()));
  const [codex, claude, endpoints, state, plugin] = await Promise.all([
    probeCodex(env),
    probeClaude(env),
    Promise.all(keys.endpoints.map(async (endpoint) => endpointFinding(endpoint, await probeEndpoint(endpoint.url, ENDPOINT_TIMEOUT_MS)))),
    probeStateDir(stateHome(env)),
    probePlugin(env, pluginRoot),
  ]);
  return [
    nodeFinding(process.version),
    codexFinding(codex.binary, env),
    ...(codex.login ? [codexLoginFinding(codex.login, env, codex.config)] : []),
    ...(codex.provider ? [codexProviderFinding(codex.provider.provider, codex.provider.probes)] : []),
    claudeFinding(claude.binary, claudeRequired),
    ...(claude.login ? [claudeLoginFinding(claude.login, claudeRequired)] : []),
    ...keys.findings,
    ...endpoints,
    stateFinding(state),
    pluginFinding(plugin),
  ];
}
