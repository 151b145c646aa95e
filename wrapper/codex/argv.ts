import { isAbsolute, resolve } from 'node:path';
import { BackendError } from '../backend.js';

export type CodexSandbox = 'read-only' | 'workspace-write' | 'danger-full-access';

export interface CodexArgvInput {
  /** Resume this Codex thread; omit to start a new one. */
  sessionId?: string;
  /** `-C`: the project for code questions, an empty folder for abstract ones. */
  cwd?: string;
  /** Default read-only: the consultee advises, it never edits. */
  sandbox?: CodexSandbox;
  /** Absolute paths its commands may not read, on top of the sandbox (not with danger-full-access). */
  hidden?: string[];
  model?: string;
  reasoningEffort?: string;
  /** Extra `-c key=value` overrides; values are TOML. */
  config?: Record<string, string>;
  /** `--json` JSONL events (default) or the plain output. */
  mode?: 'json' | 'plain';
  outputSchemaFile?: string;
}

/**
 * `codex exec` arguments (0.169). `-C`, `-s` and `--color` are exec-level only (after `resume` they
 * are a usage error), so they go before `resume`; the flags `resume` accepts go after it. The prompt
 * is always `-`: read from stdin, which the caller writes and closes.
 */
export function buildCodexArgs(input: CodexArgvInput): string[] {
  checkArgvValues(input);
  const sandbox = input.sandbox ?? 'read-only';
  const profile = input.hidden?.length && sandbox !== 'danger-full-access' ? permissionProfile(sandbox, input.hidden) : undefined;
  // `-s` would make Codex ignore the permission profile that hides the paths: the profile says the sandbox itself.
  const execLevel = ['exec', '--color', 'never', ...(profile ? [] : ['-s', sandbox])];
  // An absolute path can never be read as a flag.
  if (input.cwd) execLevel.push('-C', resolve(input.cwd));

  const shared = ['--skip-git-repo-check'];
  if (input.mode !== 'plain') shared.push('--json');
  if (input.model) shared.push('-m', input.model);
  if (input.reasoningEffort) shared.push('-c', `model_reasoning_effort=${tomlString(input.reasoningEffort)}`);
  for (const [key, value] of Object.entries(input.config ?? {})) shared.push('-c', `${key}=${value}`);
  // After the caller's overrides, so none of them can choose another profile.
  if (profile) shared.push(...profile);
  if (input.outputSchemaFile) shared.push('--output-schema', input.outputSchemaFile);

  // `--` ends the options: whatever follows is a positional, never a flag (a session id cannot smuggle one in).
  return input.sessionId
    ? [...execLevel, 'resume', ...shared, '--', input.sessionId, '-']
    : [...execLevel, ...shared, '--', '-'];
}

const PROFILE = 'parley-consultee';

/**
 * A Codex permission profile (0.169; given with -c, it wins over a `sandbox_mode` in config.toml):
 * the built-in read-only or workspace profile, plus the hidden paths at access "none".
 */
function permissionProfile(sandbox: 'read-only' | 'workspace-write', hidden: string[]): string[] {
  const rules = hidden.map((path) => `${tomlString(path)}=${tomlString('none')}`).join(',');
  return [
    '-c', `default_permissions=${tomlString(PROFILE)}`,
    '-c', `permissions.${PROFILE}.extends=${tomlString(sandbox === 'read-only' ? ':read-only' : ':workspace')}`,
    '-c', `permissions.${PROFILE}.filesystem={${rules}}`,
  ];
}

const FORMS: [keyof CodexArgvInput, RegExp, string][] = [
  ['sessionId', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'a Codex thread id (a UUID)'],
  ['model', /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/, 'a model name (letters, digits, . _ : / -)'],
  ['reasoningEffort', /^[a-z]{1,16}$/, 'a reasoning effort such as low, medium, high'],
  ['sandbox', /^(read-only|workspace-write|danger-full-access)$/, 'a Codex sandbox mode'],
];

/** Every value that reaches Codex's command line is checked for its exact form first. */
export function checkArgvValues(input: CodexArgvInput): void {
  for (const [key, form, what] of FORMS) {
    const value = input[key];
    if (value !== undefined && (typeof value !== 'string' || !form.test(value))) {
      throw new BackendError('bad-spec', `refusing to pass ${key} ${JSON.stringify(String(value)).slice(0, 80)} to codex: it must be ${what}`);
    }
  }
  for (const key of Object.keys(input.config ?? {})) {
    if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/.test(key)) throw new BackendError('bad-spec', `refusing to pass the config key ${JSON.stringify(key).slice(0, 80)} to codex`);
  }
  if (input.cwd !== undefined && (!input.cwd || input.cwd.includes('\0'))) throw new BackendError('bad-spec', 'refusing to pass an empty folder name to codex');
  for (const path of input.hidden ?? []) {
    if (!isAbsolute(path) || path.includes('\0')) throw new BackendError('bad-spec', `refusing to hide ${JSON.stringify(path).slice(0, 80)} from codex: give an absolute path`);
  }
}

const tomlString = (value: string): string => JSON.stringify(value);
