import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** SKILL.md split into its YAML frontmatter (parsed) and its body. */
export async function readSkill(): Promise<{ text: string; frontmatter: Record<string, unknown>; body: string }> {
  const text = await readFile(path.join(repoRoot, 'SKILL.md'), 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!match) throw new Error('SKILL.md has no frontmatter block');
  return { text, frontmatter: parseYaml(match[1] ?? '') as Record<string, unknown>, body: match[2] ?? '' };
}

/** SKILL.md and every Markdown file under skill/, as [relative path, text]. */
export async function skillDocuments(): Promise<[string, string][]> {
  const files = ['SKILL.md'];
  for (const entry of await readdir(path.join(repoRoot, 'skill'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.md')) files.push(path.relative(repoRoot, path.join(entry.parentPath, entry.name)));
  }
  return Promise.all(files.sort().map(async (file) => [file, await readFile(path.join(repoRoot, file), 'utf8')] as [string, string]));
}

const TOOL_PREFIXES = ['delib', 'ledger', 'reply', 'point', 'challenge', 'bucket', 'iteration', 'stress', 'arbitration', 'run'];

/**
 * Every tool name a document mentions: names in backticks or in Claude Code's mcp__ form, with a
 * prefix parley's tools use (so `delib_foo` is caught as a wrong name, `waitSeconds` is not a tool).
 */
export function mentionedToolNames(text: string): Set<string> {
  const names = new Set<string>();
  const prefixed = new RegExp(`^(?:${TOOL_PREFIXES.join('|')})_[a-z_]+$`);
  for (const match of text.matchAll(/`([a-z][a-z_]*)`/g)) if (prefixed.test(match[1] ?? '')) names.add(match[1] ?? '');
  for (const match of text.matchAll(/mcp__(?:plugin_parley_parley|parley)__([a-z_]+)/g)) names.add(match[1] ?? '');
  return names;
}

/**
 * Field names a document gives in code spans: keys before ": " (`consult: false`), members of a
 * brace list (`{ref, as, challenge?}`), segments of a dotted path (`phase.advance`), and any
 * camelCase word (`claimType`). Not checked: plain lowercase words, which are as often values,
 * and spans with a slash (paths, commands) or a model spec (`claude:sonnet`).
 */
export function mentionedFieldNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, span = ''] of text.matchAll(/`([^`\n]+)`/g)) {
    if (span.includes('/') || span.startsWith('mcp__')) continue;
    for (const [, key = ''] of span.matchAll(/\b([a-z][\w.]*):(?:\s|$)/g)) key.split('.').forEach((k) => names.add(k));
    for (const [, list = ''] of span.matchAll(/\{([^{}]*)\}/g)) {
      for (const member of list.split(',')) {
        const key = /^\s*([a-z]\w*)\??\s*$/.exec(member)?.[1];
        if (key) names.add(key);
      }
    }
    if (/^[a-z]\w*(\.[a-z]\w*)+$/.test(span)) span.split('.').forEach((k) => names.add(k));
    if (/^[a-z]+[A-Z]\w*$/.test(span)) names.add(span);
  }
  return names;
}

/** Every property name anywhere in a JSON schema (nested objects, arrays, unions). */
export function schemaPropertyNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) schema.forEach((s) => schemaPropertyNames(s, into));
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' && value && typeof value === 'object') Object.keys(value).forEach((k) => into.add(k));
      schemaPropertyNames(value, into);
    }
  }
  return into;
}

/** Every key of a JSON value, at any depth. */
export function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, into));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      into.add(key);
      keysOf(v, into);
    }
  }
  return into;
}
