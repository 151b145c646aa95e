import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { passthroughEnv } from './cli-env.js';
import { CLAUDE_ENV_PREFIXES } from './claude-cli.js';
import { resolveClaudeBinary } from './claude-path.js';
import { codexEnvironment } from './codex/child-env.js';
import { resolveCodexPath, spawnTarget } from './codex/resolve-path.js';
import { createBackend } from './model-spec.js';
import { parseModelSpec } from './parse-spec.js';

/** A login check that has not answered by then says nothing: the run goes ahead. */
const CHECK_TIMEOUT_MS = 15_000;

/**
 * Why a model spec cannot be called from this environment, or undefined when nothing says so:
 * a bad spec or missing key, a CLI binary that is not there, a codex or claude that is not logged
 * in. Run before a protocol starts, so that a model that can only fail (or, for a codex without
 * login and no network, retry for minutes) is named at once. Only a clear "no" blocks: a check
 * that cannot run or answers something unexpected lets the run go ahead.
 */
export async function whyNotReady(spec: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  try {
    const parsed = parseModelSpec(spec);
    if (parsed.provider === 'codex') return await codexLoginProblem(resolveCodexPath({ env }), env);
    if (parsed.provider === 'claude') return await claudeLoginProblem(resolveClaudeBinary({ env }), env);
    createBackend(spec, { env });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

async function codexLoginProblem(codexPath: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (env.CODEX_API_KEY || env.OPENAI_API_KEY) return undefined;
  const codexHome = env.CODEX_HOME || join(env.HOME || homedir(), '.codex');
  // A provider of the user's own (model_provider = ...) authenticates its own way, not by login.
  const config = await readFile(join(codexHome, 'config.toml'), 'utf8').catch(() => '');
  if (/^\s*model_provider\s*=/m.test(config)) return undefined;
  const { file, prefixArgs } = spawnTarget(codexPath);
  const result = await execa(file, [...prefixArgs, 'login', 'status'], {
    env: codexEnvironment(env),
    extendEnv: false,
    reject: false,
    timeout: CHECK_TIMEOUT_MS,
    stdin: 'ignore',
    all: true,
  });
  if (result.exitCode === 0 || !/not logged in/i.test(String(result.all ?? ''))) return undefined;
  return `codex is not logged in (CODEX_HOME=${codexHome}): run \`codex login\`, or \`printenv OPENAI_API_KEY | codex login --with-api-key\``;
}

async function claudeLoginProblem(claudePath: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const result = await execa(claudePath, ['auth', 'status', '--json'], {
    env: passthroughEnv(env, CLAUDE_ENV_PREFIXES),
    extendEnv: false,
    reject: false,
    timeout: CHECK_TIMEOUT_MS,
    stdin: 'ignore',
  });
  let status: { loggedIn?: unknown; apiProvider?: unknown } | undefined;
  try {
    status = JSON.parse(/\{[\s\S]*\}/.exec(String(result.stdout ?? ''))?.[0] ?? '') as typeof status;
  } catch {
    return undefined;
  }
  if (status?.loggedIn !== false || (status.apiProvider !== undefined && status.apiProvider !== 'firstParty')) return undefined;
  return 'claude is not logged in: run `claude auth login`, or set ANTHROPIC_API_KEY for the process that runs parley';
}
