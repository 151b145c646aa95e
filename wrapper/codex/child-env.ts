/**
 * The environment Codex runs with: what it needs to run and to authenticate, nothing else. A
 * read-only consultee can still run `env`, and whatever it prints reaches the state file, the audit
 * log and the orchestrator's context: parley's own keys (ANTHROPIC_API_KEY, PARLEY_API_KEY, ...) never go in.
 */
const ALLOWED = /^(PATH|HOME|USER|LOGNAME|SHELL|TERM|LANG|LANGUAGE|TZ|TMPDIR|TMP|TEMP|SYSTEMROOT|COMSPEC|PATHEXT|APPDATA|LOCALAPPDATA|USERPROFILE|LC_[A-Z]+|XDG_[A-Z_]+|CODEX_[A-Z0-9_]+|OPENAI_API_KEY|OPENAI_BASE_URL|OPENAI_ORG_ID|OPENAI_PROJECT_ID|AZURE_OPENAI_API_KEY|SSL_CERT_FILE|SSL_CERT_DIR|NODE_EXTRA_CA_CERTS|HTTPS?_PROXY|NO_PROXY|https?_proxy|no_proxy|RUST_LOG)$/;

export function codexEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key, value]) => value !== undefined && ALLOWED.test(key)));
}

/**
 * Codex's own setting for the commands it runs: only the core variables (HOME, PATH, USER...), so
 * even the keys Codex itself authenticates with never reach a command's output.
 */
export const COMMAND_ENV_POLICY = { 'shell_environment_policy.inherit': '"core"' };
