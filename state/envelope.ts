import { z } from 'zod';
import { parseJsonText } from './json-text.js';

/**
 * Every state file is one JSON object, written whole by an atomic rename:
 *   {
 *     "schemaVersion": 3,            // version of `value`'s schema; older files are migrated on read
 *     "revision": 17,                // 1 at create, +1 per committed change; checked at commit
 *     "createdAt": "2026-...Z",      // first write
 *     "updatedAt": "2026-...Z",      // last committed change
 *     "summary": { ... },            // optional, from the store's `summarize(value)`, so list() needs no validation
 *     "value": { ... }               // the document itself, valid against the current schema
 *   }
 * A file that is not this shape is corrupt; a schemaVersion above the program's is "future-version".
 */
export const Envelope = z.object({
  schemaVersion: z.number().int().nonnegative(),
  revision: z.number().int().positive(),
  createdAt: z.string().optional(),
  updatedAt: z.string(),
  summary: z.unknown().optional(),
  value: z.unknown(),
});
export type Envelope = z.infer<typeof Envelope>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Migration = (doc: any) => any;

export interface DecodeOptions<T> {
  schema: z.ZodType<T>;
  currentVersion: number;
  migrations: Record<number, Migration>;
}

export type Decoded<T> =
  | { ok: true; envelope: Envelope; value: T; migratedFrom?: number }
  | { ok: false; kind: 'corrupt' | 'future-version'; reason: string };

export function parseEnvelope(text: string): { ok: true; envelope: Envelope } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = parseJsonText(text, 'the file');
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  const parsed = Envelope.safeParse(json);
  if (!parsed.success) return { ok: false, reason: `not a parley state envelope: ${z.prettifyError(parsed.error)}` };
  return { ok: true, envelope: parsed.data };
}

/** Parses, migrates in order (k -> k+1 -> ... -> current) and validates a state file's text. */
export function decodeDocument<T>(text: string, options: DecodeOptions<T>): Decoded<T> {
  const parsed = parseEnvelope(text);
  if (!parsed.ok) return { ok: false, kind: 'corrupt', reason: parsed.reason };
  const { envelope } = parsed;
  if (envelope.schemaVersion > options.currentVersion) {
    return {
      ok: false,
      kind: 'future-version',
      reason: `schemaVersion ${envelope.schemaVersion} is newer than this program's ${options.currentVersion}: upgrade parley to read it`,
    };
  }
  let doc: unknown = envelope.value;
  for (let version = envelope.schemaVersion; version < options.currentVersion; version++) {
    const migrate = options.migrations[version];
    if (!migrate) {
      return { ok: false, kind: 'corrupt', reason: `no migration from schemaVersion ${version} to ${version + 1}` };
    }
    try {
      doc = migrate(structuredClone(doc));
    } catch (error) {
      return { ok: false, kind: 'corrupt', reason: `migration ${version} -> ${version + 1} failed: ${(error as Error).message}` };
    }
  }
  const valid = options.schema.safeParse(doc);
  if (!valid.success) {
    return { ok: false, kind: 'corrupt', reason: `value does not match schema v${options.currentVersion}: ${z.prettifyError(valid.error)}` };
  }
  const migratedFrom = envelope.schemaVersion < options.currentVersion ? envelope.schemaVersion : undefined;
  return migratedFrom === undefined
    ? { ok: true, envelope, value: valid.data }
    : { ok: true, envelope, value: valid.data, migratedFrom };
}

export function encodeEnvelope(envelope: Envelope): string {
  return JSON.stringify(envelope, null, 2) + '\n';
}
