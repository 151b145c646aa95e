import { open, readFile, mkdir, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { redact } from '../schemas/secrets.js';

/** One line of an audit log: what happened, when, and its data. */
export interface AuditRecord {
  type: string;
  at: string;
  [key: string]: unknown;
}

export interface AuditLog {
  readonly path: string;
  /** Appends one JSON line; resolves once it is fsynced. */
  append(record: Omit<AuditRecord, 'at'> & { at?: string }): Promise<AuditRecord>;
  /** Every record; a line that is not JSON (a crash mid-append) becomes an AUDIT_WARNING record, never an error. */
  readAll(): Promise<AuditRecord[]>;
}

interface Pending {
  line: string;
  done: () => void;
  fail: (error: unknown) => void;
}

/**
 * Group commit: lines appended while an fsync is in flight are written together and share the next
 * fsync, in order. N concurrent model calls of a debate round then cost about one fsync, not N.
 * Every append still resolves only after its line is durable.
 */
export function openAuditLog(path: string): AuditLog {
  let pending: Pending[] = [];
  let flushing: Promise<void> | undefined;

  async function flush(): Promise<void> {
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      try {
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        // Private from the first byte: audit lines carry prompts and replies.
        const handle = await open(path, 'a+', 0o600);
        try {
          // After a crash cut the last line short, start on a new line: the torn line stays one bad line.
          const lead = (await endsMidLine(handle)) ? '\n' : '';
          await handle.writeFile(lead + batch.map((entry) => entry.line).join(''), 'utf8');
          await handle.sync();
        } finally {
          await handle.close();
        }
        for (const entry of batch) entry.done();
      } catch (error) {
        for (const entry of batch) entry.fail(error);
      }
    }
    // Cleared in the same synchronous step as the last empty check, so no append can slip between.
    flushing = undefined;
  }

  return {
    path,
    append(record) {
      const full = { ...record, at: record.at ?? new Date().toISOString() } as AuditRecord;
      const line = redact(JSON.stringify(full)) + '\n';
      const appended = new Promise<AuditRecord>((resolve, reject) => {
        pending.push({ line, done: () => resolve(full), fail: reject });
      });
      flushing ??= flush();
      return appended;
    },
    async readAll() {
      await flushing;
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      return parseAuditLines(text);
    },
  };
}

async function endsMidLine(handle: FileHandle): Promise<boolean> {
  const { size } = await handle.stat();
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

/** The type of the record that stands in for a line that is not JSON. */
export const AUDIT_WARNING = 'audit-warning';

/**
 * Parses JSON lines. A line that is not JSON (a write cut short by a crash) becomes an AUDIT_WARNING
 * record and the rest is kept. Before appends started on a new line after a tear, the next record
 * was glued to the torn one: it is recovered from the end of the line.
 */
export function parseAuditLines(text: string): AuditRecord[] {
  const records: AuditRecord[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const record = parseRecord(line);
    if (record) {
      records.push(record);
      return;
    }
    const at = records.at(-1)?.at ?? '';
    records.push({ type: AUDIT_WARNING, at, line: index + 1, warning: `audit log line ${index + 1} is not JSON (a write cut short?): skipped` });
    const glued = gluedRecord(line);
    if (glued) records.push(glued);
  });
  return records;
}

function parseRecord(text: string): AuditRecord | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as AuditRecord) : undefined;
  } catch {
    return undefined;
  }
}

/** A whole record at the end of a broken line, starting at a `{"type":` after the torn part. */
function gluedRecord(line: string): AuditRecord | undefined {
  for (let start = line.indexOf('{"type":', 1); start > 0; start = line.indexOf('{"type":', start + 1)) {
    const record = parseRecord(line.slice(start));
    if (record) return record;
  }
  return undefined;
}
