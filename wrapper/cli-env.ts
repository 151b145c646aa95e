import { redactWith, secretValuesOf } from '../schemas/secrets.js';

/**
 * The env a model CLI child gets: a fixed allow-list taken from the caller's env, never the whole
 * process env, so unrelated secrets in the parent never reach the child.
 */
const PASS_NAMES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'SYSTEMROOT',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
]);

export function passthroughEnv(source: NodeJS.ProcessEnv, prefixes: readonly string[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (PASS_NAMES.has(name) || prefixes.some((prefix) => name.startsWith(prefix))) env[name] = value;
  }
  return env;
}

/** Values of secret-looking variables, to scrub from anything we surface (errors, stderr tails). */
export function secretValues(env: NodeJS.ProcessEnv): string[] {
  return secretValuesOf(env);
}

export function scrub(text: string, secrets: readonly string[]): string {
  return redactWith(text, secrets);
}

/** The last `max` characters of a child's stderr, for error messages. */
export function tail(text: string, max = 2000): string {
  const trimmed = text.trim();
  return trimmed.length <= max ? trimmed : `…${trimmed.slice(-max)}`;
}
