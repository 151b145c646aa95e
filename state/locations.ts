import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { SafeId } from '../schemas/common.js';
import { deliberationsDir, stateHome } from './paths.js';
import { StoreError } from './store-error.js';

/**
 * 'parley': <stateHome()>/deliberations/<id>.json (PARLEY_STATE_DIR, XDG_STATE_HOME, ~/.local/state).
 * 'claude-home': the seed's standard-mode place, <CLAUDE_CONFIG_DIR or ~/.claude>/codex-ask-state.<id>.json.
 */
export type StoreLayout = 'parley' | 'claude-home';

export interface StoreLocation {
  dir: string;
  /** Prepended to `<id>.json` (and `<id>.audit.jsonl`) in file names. */
  filePrefix: string;
  /** The folder when it is parley's own, to be made private (a store option); none for the user's Claude home. */
  privateDirs: string[];
}

export interface StoreLocationOptions {
  /** An explicit folder wins over the layout and the environment. */
  dir?: string;
  layout?: StoreLayout;
  env?: NodeJS.ProcessEnv;
}

export const CLAUDE_HOME_PREFIX = 'codex-ask-state.';

export function deliberationStoreLocation(options: StoreLocationOptions = {}): StoreLocation {
  const env = options.env ?? process.env;
  const layout = options.layout ?? (env.PARLEY_STATE_LAYOUT === 'claude-home' ? 'claude-home' : 'parley');
  const filePrefix = layout === 'claude-home' ? CLAUDE_HOME_PREFIX : '';
  if (options.dir) return { dir: resolve(options.dir), filePrefix, privateDirs: layout === 'claude-home' ? [] : [resolve(options.dir)] };
  if (layout === 'claude-home') {
    const claudeHome = env.CLAUDE_CONFIG_DIR ? resolve(env.CLAUDE_CONFIG_DIR) : join(homedir(), '.claude');
    return { dir: claudeHome, filePrefix, privateDirs: [] };
  }
  const dir = deliberationsDir(stateHome(env));
  return { dir, filePrefix, privateDirs: [dir] };
}

/** Ids become file names: anything but SafeId (no dots, slashes or leading dash) is refused. */
export function validateDocumentId(id: string): string {
  if (typeof id !== 'string' || !SafeId.safeParse(id).success) {
    throw new StoreError('invalid-id', `invalid document id ${JSON.stringify(id)}: ids are 1-64 characters of A-Z a-z 0-9 _ - and start with a letter or digit`);
  }
  return id;
}

export function stateFilePathFor(dir: string, id: string, filePrefix = ''): string {
  return join(dir, `${filePrefix}${validateDocumentId(id)}.json`);
}

/** The append-only audit log kept beside a document's state file. */
export function auditLogPathFor(dir: string, id: string, filePrefix = ''): string {
  return join(dir, `${filePrefix}${validateDocumentId(id)}.audit.jsonl`);
}

/** The report kept beside a document's state file (a deliberation's Markdown report): `<id>.report.md`. */
export const REPORT_SUFFIX = '.report.md';

export function reportPathFor(dir: string, id: string, filePrefix = ''): string {
  return join(dir, `${filePrefix}${validateDocumentId(id)}${REPORT_SUFFIX}`);
}

/** The id in a state file name, or undefined for anything else in the folder (locks, temps, logs, moved-aside files). */
export function idFromStateFileName(name: string, filePrefix = ''): string | undefined {
  if (!name.startsWith(filePrefix) || !name.endsWith('.json')) return undefined;
  const id = name.slice(filePrefix.length, -'.json'.length);
  return SafeId.safeParse(id).success ? id : undefined;
}
