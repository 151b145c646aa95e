import { join } from 'node:path';
import { z } from 'zod';
import { redactJson } from '../schemas/secrets.js';
import { UserFacingError } from '../schemas/user-facing-error.js';
import { writeJsonFileAtomic } from '../state/atomic-write.js';
import { readJsonFile } from '../state/json-text.js';
import { parseAuditLines } from '../state/audit-log.js';
import { canonicalJson, isPlainObject, sha256Hex } from './canonical-json.js';
import { readFile } from 'node:fs/promises';

/**
 * What a run is, recorded in its folder when it starts (config.json: the parsed configuration and
 * a canonical hash of it), so that a rerun into the same folder resumes only the same run: any
 * other configuration is refused before anything is called or written, naming what differs.
 */
export const RUN_CONFIG_FILE = 'config.json';
const RUN_CONFIG_VERSION = 1;

/** A run's protocol and its configuration as parsed (defaults filled in, so an explicit default equals an omitted one). */
export interface RunConfig {
  protocol: 'dialogic' | 'debate';
  config: Record<string, unknown>;
}

/**
 * Keys that only say how patiently a run waits (timeouts, retry pauses, calls in flight): they change
 * no reply, so a run stopped by a timeout may be resumed with a longer one.
 */
const PACING_KEYS: Record<RunConfig['protocol'], readonly string[]> = {
  debate: ['timeoutMs', 'concurrencyPerBackend'],
  dialogic: ['callTimeoutMs', 'retryBaseMs'],
};

const RunConfigFile = z.object({
  kind: z.literal('parley.run-config'),
  version: z.literal(RUN_CONFIG_VERSION),
  protocol: z.enum(['dialogic', 'debate']),
  hash: z.string(),
  config: z.record(z.string(), z.unknown()),
});

/** The part of a configuration that makes the run what it is (secrets redacted, as everywhere on disk). */
function identityOf(run: RunConfig): Record<string, unknown> {
  const config = redactJson(run.config);
  return Object.fromEntries(Object.entries(config).filter(([key]) => !PACING_KEYS[run.protocol].includes(key)));
}

/** sha256 of the canonical JSON of the protocol and the configuration's identity. */
export function runConfigHash(run: RunConfig): string {
  return sha256Hex(canonicalJson({ protocol: run.protocol, config: identityOf(run) }));
}

/**
 * Records the configuration in a fresh run folder, or checks it against the recorded one. Throws a
 * UserFacingError (`run-config-changed`) naming each key that differs and how to start a fresh run
 * (`freshRun` completes "to start a fresh run, ..."); writes nothing then. Call it with the folder locked.
 */
export async function recordRunConfig(dir: string, run: RunConfig, freshRun = `write to another folder, or remove ${dir}`): Promise<void> {
  const recorded = await recordedRunConfig(dir);
  if (recorded) {
    const differences = recorded.protocol === run.protocol ? configDifferences(identityOf(recorded), identityOf(run)) : [`protocol: ${recorded.protocol} -> ${run.protocol}`];
    if (differences.length > 0) {
      throw new UserFacingError(
        `${dir} holds a ${recorded.protocol} run started with another configuration (${differences.join('; ')}); nothing was called or changed. ` +
          `To start a fresh run, ${freshRun}`,
        { code: 'run-config-changed' },
      );
    }
    if (recorded.fromFile) return;
  }
  const config = redactJson(run.config);
  await writeJsonFileAtomic(join(dir, RUN_CONFIG_FILE), { kind: 'parley.run-config', version: RUN_CONFIG_VERSION, protocol: run.protocol, hash: runConfigHash(run), config });
}

/** config.json, or for a folder from before it existed, the configuration its audit log started with. */
async function recordedRunConfig(dir: string): Promise<(RunConfig & { fromFile: boolean }) | undefined> {
  const path = join(dir, RUN_CONFIG_FILE);
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text !== undefined) {
    const parsed = RunConfigFile.safeParse(await readJsonFile(path, path));
    if (!parsed.success) throw new UserFacingError(`${path} is not a run configuration parley wrote; restore it or remove the run folder ${dir}`, { code: 'run-config-unreadable' });
    return { protocol: parsed.data.protocol, config: parsed.data.config, fromFile: true };
  }
  const audit = await readFile(join(dir, 'audit.jsonl'), 'utf8').catch(() => '');
  const started = parseAuditLines(audit).find((record) => Object.hasOwn(LEGACY_STARTS, record.type) && isPlainObject(record.config));
  if (!started) return undefined;
  return { protocol: LEGACY_STARTS[started.type]!, config: started.config as Record<string, unknown>, fromFile: false };
}

/** The audit records that carried a run's configuration before config.json. */
const LEGACY_STARTS: Record<string, RunConfig['protocol']> = { run_started: 'dialogic', 'debate.start': 'debate' };

const MAX_LISTED = 8;
const MAX_VALUE_CHARS = 60;

/** `path: before -> after` for every leaf that differs, in key order; at most MAX_LISTED, then how many more. */
export function configDifferences(before: unknown, after: unknown): string[] {
  const found: string[] = [];
  collect(before, after, [], found);
  return found.length > MAX_LISTED ? [...found.slice(0, MAX_LISTED), `and ${found.length - MAX_LISTED} more`] : found;
}

function collect(before: unknown, after: unknown, path: string[], found: string[]): void {
  if (canonicalJson(before) === canonicalJson(after)) return;
  const bothObjects = isPlainObject(before) && isPlainObject(after);
  const bothArrays = Array.isArray(before) && Array.isArray(after);
  if (!bothObjects && !bothArrays) {
    found.push(`${path.join('.') || 'config'}: ${shown(before)} -> ${shown(after)}`);
    return;
  }
  const keys = bothArrays
    ? Array.from({ length: Math.max(before.length, after.length) }, (_, index) => String(index))
    : [...new Set([...Object.keys(before as object), ...Object.keys(after as object)])].sort();
  const at = (value: unknown, key: string): unknown => (value as Record<string, unknown>)[key];
  for (const key of keys) collect(at(before, key), at(after, key), [...path, key], found);
}

function shown(value: unknown): string {
  if (value === undefined) return '(none)';
  const text = canonicalJson(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}
