import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { DeliberationState } from '../../schemas/argumentation.js';
import { parseAuditLines, type AuditRecord } from '../../state/audit-log.js';
import { readJsonFile } from '../../state/json-text.js';
import { isMissingFile, statPath } from '../../state/read-file.js';
import { runFolderFor } from '../run-folder.js';
import { isSweepFile, loadSweepTable, sweepRunLabel, sweepTable, type SweepTable } from './sweep-source.js';

export type ReportKind = 'argumentation' | 'dialogic' | 'debate' | 'sweep';

/** One saved run or state, with the files kept beside it that its report reads. */
export type ReportSource =
  | { kind: 'argumentation'; label: string; state: DeliberationState; audit: AuditRecord[] }
  | { kind: 'dialogic'; label: string; run: unknown; baseline?: unknown; audit?: AuditRecord[] }
  | { kind: 'debate'; label: string; transcript: unknown }
  | { kind: 'sweep'; label: string; sweep: SweepTable };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A state store file wraps the state in an envelope ({revision, value, ...}); reports read the state. */
const unwrap = (data: unknown): unknown => (isObject(data) && isObject(data.value) && typeof data.revision === 'number' ? data.value : data);

/** Which protocol wrote this JSON, from its shape. */
export function detectKind(input: unknown): ReportKind {
  const data = unwrap(input);
  if (!isObject(data)) throw new Error('not a parley run: the file does not hold a JSON object');
  if (data.kind === 'parley.debate') return 'debate';
  if (isSweepFile(data)) return 'sweep';
  if ('ledger' in data && 'buckets' in data && 'question' in data) return 'argumentation';
  const run = isObject(data.run) ? data.run : data;
  if ('submitted_terms' in run || 'dropped_terms' in run || run.protocol === 'minimal-seed-dialogic') return 'dialogic';
  throw new Error('not a parley run: expected an argumentation state file, a dialogic run file, a debate transcript or a sweep (its folder, summary.json or sweep.json)');
}

export function sourceFromData(input: unknown, extras: { label?: string; audit?: AuditRecord[]; baseline?: unknown } = {}): ReportSource {
  const data = unwrap(input);
  const kind = detectKind(data);
  const label = extras.label ?? kind;
  if (kind === 'argumentation') return { kind, label, state: DeliberationState.parse(data), audit: extras.audit ?? [] };
  if (kind === 'debate') return { kind, label, transcript: data };
  if (kind === 'sweep') return { kind, label, sweep: sweepTable(data, '.') };
  const holder = data as { run?: unknown; baseline?: unknown };
  const inner = isObject(holder.run) ? holder.run : data;
  const baseline = extras.baseline ?? (isObject(holder.run) ? holder.baseline : undefined);
  return { kind, label, run: inner, ...(baseline !== undefined && { baseline }), ...(extras.audit && { audit: extras.audit }) };
}

async function readJsonIfPresent(path: string): Promise<unknown> {
  try {
    return await readJsonFile(path, basename(path));
  } catch (error) {
    if (isMissingFile(error)) return undefined;
    throw error;
  }
}

/**
 * Reads a run or state file and what lies beside it: an argumentation state's `<id>.audit.jsonl`,
 * a dialogic run's `baseline.json` (in its run folder `<name>.run/`, or beside it in a server run folder).
 */
export async function loadReportSource(path: string): Promise<ReportSource> {
  if ((await statPath(path)).isDirectory()) return sweepSource(path);
  const data = await readJsonFile(path, basename(path));
  const stem = join(dirname(path), basename(path, extname(path)));
  const kind = detectKind(data);
  if (kind === 'sweep') return sweepSource(path);
  const label = (await sweepRunLabel(path)) ?? basename(path);
  if (kind === 'argumentation') {
    const text = await readFile(`${stem}.audit.jsonl`, 'utf8').catch(() => '');
    return sourceFromData(data, { label, audit: parseAuditLines(text) });
  }
  if (kind === 'dialogic') {
    const folder = (await readJsonIfPresent(join(runFolderFor(path), 'baseline.json'))) === undefined ? dirname(path) : runFolderFor(path);
    const baseline = await readJsonIfPresent(join(folder, 'baseline.json'));
    const audit = parseAuditLines(await readFile(join(folder, 'audit.jsonl'), 'utf8').catch(() => ''));
    return sourceFromData(data, { label, audit, ...(baseline !== undefined && { baseline }) });
  }
  return sourceFromData(data, { label });
}

async function sweepSource(path: string): Promise<ReportSource> {
  const sweep = await loadSweepTable(path);
  return { kind: 'sweep', label: sweep.name ?? basename(sweep.dir), sweep };
}
