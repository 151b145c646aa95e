import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codexHomeOf } from './hidden-paths.js';

/** Where the built-in `openai` provider sends a ChatGPT login's requests, and an API key's. */
export const CHATGPT_CODEX_URL = 'https://chatgpt.com/backend-api/codex';
export const OPENAI_API_URL = 'https://api.openai.com/v1';
/** Codex's other built-in providers (0.169): local servers. */
const BUILT_IN: Record<string, string> = { oss: 'http://localhost:11434/v1', ollama: 'http://localhost:11434/v1', lmstudio: 'http://localhost:1234/v1' };

export type CodexLogin = 'chatgpt' | 'api-key' | undefined;

export interface CodexProvider {
  /** The provider id `model_provider` names (`openai` when none does). */
  id: string;
  /** Where its requests go: two for `openai` when the login is not known (ChatGPT's backend and the API); none when no base URL can be read. */
  urls: string[];
  /** What to change to point Codex elsewhere, and in which file. */
  where: string;
}

/** Codex's config.toml as Codex reads it (CODEX_HOME, else ~/.codex); empty when there is none. */
export function readCodexConfig(env: NodeJS.ProcessEnv): { text: string; file: string } {
  const file = join(codexHomeOf(env), 'config.toml');
  try {
    return { text: readFileSync(file, 'utf8'), file };
  } catch {
    return { text: '', file };
  }
}

/**
 * The model provider Codex uses and its base URL, from config.toml and the `-c` overrides a call
 * passes (TOML values): `model_provider` (a `profile`'s first), its `[model_providers.<id>]`
 * `base_url`; the built-in `openai` goes to `openai_base_url` when set, else by the login. Reads the
 * few string keys involved; it is not a TOML parser.
 */
export function codexProvider(config: { text: string; file: string }, options: { overrides?: Record<string, string>; login?: CodexLogin } = {}): CodexProvider {
  const keys = tomlStrings(config.text);
  for (const [key, value] of Object.entries(options.overrides ?? {})) {
    const parsed = stringValue(value);
    if (parsed !== undefined) keys.set(key.split('.').map(unquote).join('\u0000'), parsed);
  }
  const get = (...path: string[]) => keys.get(path.join('\u0000'));
  const profile = get('profile');
  const id = (profile && get('profiles', profile, 'model_provider')) ?? get('model_provider') ?? 'openai';
  const baseUrl = get('model_providers', id, 'base_url');
  if (baseUrl) return { id, urls: [baseUrl], where: `base_url of [model_providers.${id}] in ${config.file}` };
  if (id === 'openai') {
    const configured = get('openai_base_url');
    if (configured) return { id, urls: [configured], where: `openai_base_url in ${config.file}` };
    const where = `openai_base_url in ${config.file} (if Codex should use another endpoint)`;
    const urls = options.login === 'chatgpt' ? [CHATGPT_CODEX_URL] : options.login === 'api-key' ? [OPENAI_API_URL] : [CHATGPT_CODEX_URL, OPENAI_API_URL];
    return { id, urls, where };
  }
  return { id, urls: BUILT_IN[id] ? [BUILT_IN[id]] : [], where: `model_provider in ${config.file}` };
}

/** Every `key = "string"` of a TOML text, by its full path (table parts and key parts joined by NUL). */
function tomlStrings(text: string): Map<string, string> {
  const found = new Map<string, string>();
  let table: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[[')) {
      table = ['\u0001'];
      continue;
    }
    const header = /^\[([^\]]+)\]/.exec(line);
    if (header) {
      table = splitKey(header[1]!);
      continue;
    }
    const assignment = /^((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=\s*(.*)$/.exec(line);
    if (!assignment) continue;
    const value = stringValue(assignment[2]!);
    if (value !== undefined) found.set([...table, ...splitKey(assignment[1]!)].join('\u0000'), value);
  }
  return found;
}

function splitKey(key: string): string[] {
  return (key.match(/"[^"]*"|'[^']*'|[^.\s]+/g) ?? []).map(unquote);
}

const unquote = (part: string): string => part.trim().replace(/^"(.*)"$|^'(.*)'$/, (_, basic?: string, literal?: string) => basic ?? literal ?? '');

/** A TOML basic or literal string at the start of `value` (a comment may follow); undefined for anything else. */
function stringValue(value: string): string | undefined {
  const literal = /^'([^']*)'/.exec(value.trim());
  if (literal) return literal[1];
  const basic = /^"((?:[^"\\]|\\.)*)"/.exec(value.trim());
  if (!basic) return undefined;
  try {
    return JSON.parse(`"${basic[1]}"`) as string;
  } catch {
    return basic[1];
  }
}
