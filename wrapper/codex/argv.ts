export type CodexSandbox = 'read-only' | 'workspace-write' | 'danger-full-access';

export interface CodexArgvInput {
  /** Resume this Codex thread; omit to start a new one. */
  sessionId?: string;
  /** `-C`: the project for code questions, an empty folder for abstract ones. */
  cwd?: string;
  /** Default read-only: the consultee advises, it never edits. */
  sandbox?: CodexSandbox;
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
  const execLevel = ['exec', '--color', 'never', '-s', input.sandbox ?? 'read-only'];
  if (input.cwd) execLevel.push('-C', input.cwd);

  const shared = ['--skip-git-repo-check'];
  if (input.mode !== 'plain') shared.push('--json');
  if (input.model) shared.push('-m', input.model);
  if (input.reasoningEffort) shared.push('-c', `model_reasoning_effort=${tomlString(input.reasoningEffort)}`);
  for (const [key, value] of Object.entries(input.config ?? {})) shared.push('-c', `${key}=${value}`);
  if (input.outputSchemaFile) shared.push('--output-schema', input.outputSchemaFile);

  return input.sessionId
    ? [...execLevel, 'resume', ...shared, input.sessionId, '-']
    : [...execLevel, ...shared, '-'];
}

const tomlString = (value: string): string => JSON.stringify(value);
