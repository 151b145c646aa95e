/**
 * The one place secrets are scrubbed: every known secret value (keys in the environment, keys a
 * backend was configured with) is replaced before text reaches a tool result, a log line, an audit
 * line, a state or run file, or a report. A provider that echoes a key back then leaks nothing.
 */

export const REDACTED = '[redacted]';

/** *_API_KEY, *_TOKEN, *_SECRET*, passwords and credentials: the names whose values are secrets. */
const SECRET_NAME = /(^|_)(API_?KEY|KEY|TOKEN|SECRETS?|PASSWORD|PASSWD|CREDENTIALS?)(_|$)/i;
/** Shorter values ("true", "1", a port) would scrub ordinary words and numbers from everything. */
const MIN_SECRET_LENGTH = 8;

const remembered = new Set<string>();

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** The secret values of an environment (only values long enough to be keys). */
export function secretValuesOf(env: NodeJS.ProcessEnv): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= MIN_SECRET_LENGTH && isSecretName(name)) values.push(value);
  }
  return values;
}

/** Keeps the secrets of an environment that is not process.env (a server's or a backend's own). */
export function rememberSecretsOf(env: NodeJS.ProcessEnv): void {
  if (env === process.env) return;
  for (const value of secretValuesOf(env)) remembered.add(value);
}

/** Keeps one configured key. */
export function rememberSecret(value: string | undefined): void {
  if (value && value.length >= MIN_SECRET_LENGTH) remembered.add(value);
}

/** Every value to scrub, longest first so a key that contains another is replaced whole. */
export function knownSecrets(): string[] {
  // process.env is read on every call: a key set after start is scrubbed too.
  return [...new Set([...remembered, ...secretValuesOf(process.env)])].sort((a, b) => b.length - a.length);
}

/** `text` with each of `secrets` (and its JSON-escaped form) replaced by [redacted]. */
export function redactWith(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret && out.includes(escaped)) out = out.split(escaped).join(REDACTED);
  }
  return out;
}

export function redact(text: string): string {
  return redactWith(text, knownSecrets());
}

/** A JSON-able value with every known secret scrubbed from its strings and keys; the same value when none occurs. */
export function redactJson<T>(value: T): T {
  const secrets = knownSecrets();
  return secrets.length === 0 ? value : (scrubValue(value, secrets) as T);
}

function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactWith(value, secrets);
  if (Array.isArray(value)) {
    const items = value.map((item) => scrubValue(item, secrets));
    return items.every((item, index) => item === value[index]) ? value : items;
  }
  if (typeof value !== 'object' || value === null) return value;
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const scrubbed = [redactWith(key, secrets), scrubValue(item, secrets)] as const;
    if (scrubbed[0] !== key || scrubbed[1] !== item) changed = true;
    return scrubbed;
  });
  return changed ? Object.fromEntries(entries) : value;
}
