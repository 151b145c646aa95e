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
import { presetFor } from './presets.js';
import { modelNotServed, probeEndpoint, unreachableFix } from './endpoint-probe.js';
import { UserFacingError } from '../schemas/user-facing-error.js';

/** A login check that has not answered by then says nothing: the run goes ahead. */
const CHECK_TIMEOUT_MS = 15_000;

/**
 * Why a model spec cannot be called from this environment, or undefined when nothing says so:
 * a bad spec or missing key, a CLI binary that is not there, a codex or claude that is not logged
 * in, an endpoint where nothing listens, a model the endpoint's own list leaves out. Run before a
 * protocol starts (CLI runs and sweeps, the MCP consults, arbitrations and runs), so that a model
 * that can only fail (or, for a codex without login and no network, retry for minutes) is named at once. Only a clear "no" blocks: a check
 * that cannot run or answers something unexpected lets the run go ahead.
 */
export async function whyNotReady(spec: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  try {
    const parsed = parseModelSpec(spec);
    if (parsed.provider === 'codex') return await codexLoginProblem(resolveCodexPath({ env }), env);
    if (parsed.provider === 'claude') return await claudeLoginProblem(resolveClaudeBinary({ env }), env);
    createBackend(spec, { env });
    const url = parsed.baseUrl ?? presetFor(parsed.provider)?.baseUrl;
    if (!url) return undefined;
    const probe = await probeEndpoint(url);
    if (probe.definite) return `${url} is unreachable (${probe.error}): ${unreachableFix(url, parsed.provider, `the spec ${spec}`)}`;
    // An endpoint that lists its models says which names it answers for: any other fails on every call.
    const notServed = modelNotServed(url, probe, parsed.model, `the spec ${spec}`);
    return notServed && `${notServed.problem}: ${notServed.fix}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** One role a run gives a model: what the user is told when that model cannot be used. */
export interface ModelRole {
  label: string;
  spec: string;
}

export type ReadinessCheck = (spec: string) => Promise<string | undefined>;

/**
 * Checks every model of a run (or of a sweep, a consult: `what` is what did not start) and throws
 * one UserFacingError (`model-not-ready`) naming each role that cannot run and why, with the fix;
 * each distinct spec is checked once, all at the same time.
 */
export async function assertModelsReady(
  roles: readonly ModelRole[],
  options: { what?: string; env?: NodeJS.ProcessEnv; check?: ReadinessCheck } = {},
): Promise<void> {
  const check = options.check ?? ((spec: string) => whyNotReady(spec, options.env ?? process.env));
  const specs = [...new Set(roles.map((role) => role.spec))];
  const reasons = new Map(await Promise.all(specs.map(async (spec) => [spec, await check(spec)] as const)));
  const problems = roles.filter((role) => reasons.get(role.spec) !== undefined).map((role) => `  ${role.label}: ${reasons.get(role.spec)}`);
  if (problems.length === 0) return;
  throw new UserFacingError(`${problems.length === 1 ? 'a model' : `${problems.length} models`} cannot be used, so ${options.what ?? 'the run'} did not start:\n${problems.join('\n')}`, {
    code: 'model-not-ready',
  });
}

/** How long a model found ready stays so: long enough that a deliberation's consults pay for one check, short enough that a lost login shows. */
export const READY_TTL_MS = 5 * 60 * 1000;

/**
 * A check whose passes are remembered for `ttlMs` (a failure never is: a fix counts at once); checks of
 * one spec made while one runs share it.
 */
export function rememberingPasses(check: ReadinessCheck, options: { ttlMs?: number; now?: () => number } = {}): ReadinessCheck {
  const ttlMs = options.ttlMs ?? READY_TTL_MS;
  const now = options.now ?? Date.now;
  const readyUntil = new Map<string, number>();
  const running = new Map<string, Promise<string | undefined>>();
  return async (spec) => {
    if ((readyUntil.get(spec) ?? -Infinity) > now()) return undefined;
    let pending = running.get(spec);
    if (!pending) {
      pending = check(spec).finally(() => running.delete(spec));
      running.set(spec, pending);
    }
    const problem = await pending;
    if (problem === undefined) readyUntil.set(spec, now() + ttlMs);
    else readyUntil.delete(spec);
    return problem;
  };
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
