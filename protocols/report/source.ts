import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { DeliberationState } from '../../schemas/argumentation.js';
import { parseAuditLines, type AuditRecord } from '../../state/audit-log.js';
import { readJsonFile } from '../../state/json-text.js';
import { runFolderFor } from '../run-folder.js';

export type ReportKind = 'argumentation' | 'dialogic' | 'debate';

/** One saved run or state, with the files kept beside it that its report reads. */
export type ReportSource =
  | { kind: 'argumentation'; label: string; state: DeliberationState; audit: AuditRecord[] }
  | { kind: 'dialogic'; label: string; run: unknown; baseline?: unknown }
  | { kind: 'debate'; label: string; transcript: unknown };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A state store file wraps the state in an envelope ({revision, value, ...}); reports read the state. */
const unwrap = (data: unknown): unknown => (isObject(data) && isObject(data.value) && typeof data.revision === 'number' ? data.value : data);

/** Which protocol wrote this JSON, from its shape. */
export function detectKind(input: unknown): ReportKind {
  const data = unwrap(input);
  if (!isObject(data)) throw new Error('not a parley run: the file does not hold a JSON object');
  if (data.kind === 'parley.debate') return 'debate';
  if ('ledger' in data && 'buckets' in data && 'question' in data) return 'argumentation';
  const run = isObject(data.run) ? data.run : data;
  if ('submitted_terms' in run || 'dropped_terms' in run || run.protocol === 'minimal-seed-dialogic') return 'dialogic';
  throw new Error('not a parley run: expected an argumentation state file, a dialogic run file or a debate transcript');
}

export function sourceFromData(input: unknown, extras: { label?: string; audit?: AuditRecord[]; baseline?: unknown } = {}): ReportSource {
  const data = unwrap(input);
  const kind = detectKind(data);
  const label = extras.label ?? kind;
  if (kind === 'argumentation') return { kind, label, state: DeliberationState.parse(data), audit: extras.audit ?? [] };
  if (kind === 'debate') return { kind, label, transcript: data };
  const holder = data as { run?: unknown; baseline?: unknown };
  const inner = isObject(holder.run) ? holder.run : data;
  const baseline = extras.baseline ?? (isObject(holder.run) ? holder.baseline : undefined);
  return { kind, label, run: inner, ...(baseline !== undefined && { baseline }) };
}

async function readJsonIfPresent(path: string): Promise<unknown> {
  try {
    return await readJsonFile(path, basename(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Reads a run or state file and what lies beside it: an argumentation state's `<id>.audit.jsonl`,
 * a dialogic run's `baseline.json` (in its run folder `<name>.run/`, or beside it in a server run folder).
 */
export async function loadReportSource(path: string): Promise<ReportSource> {
  const data = await readJsonFile(path, basename(path));
  const stem = join(dirname(path), basename(path, extname(path)));
  const label = basename(path);
  const kind = detectKind(data);
  if (kind === 'argumentation') {
    const text = await readFile(`${stem}.audit.jsonl`, 'utf8').catch(() => '');
    return sourceFromData(data, { label, audit: parseAuditLines(text) });
  }
  if (kind === 'dialogic') {
    const baseline = (await readJsonIfPresent(join(runFolderFor(path), 'baseline.json'))) ?? (await readJsonIfPresent(join(dirname(path), 'baseline.json')));
    return sourceFromData(data, { label, ...(baseline !== undefined && { baseline }) });
  }
  return sourceFromData(data, { label });
}
