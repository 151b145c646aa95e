import { open, readFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

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
  /** Every complete record; a torn last line (a crash mid-append) is ignored, never fatal. */
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
        await mkdir(dirname(path), { recursive: true });
        const handle = await open(path, 'a');
        try {
          await handle.writeFile(batch.map((entry) => entry.line).join(''), 'utf8');
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
      const line = JSON.stringify(full) + '\n';
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

export function parseAuditLines(text: string): AuditRecord[] {
  const records: AuditRecord[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      records.push(JSON.parse(line) as AuditRecord);
    } catch (error) {
      const isLast = lines.slice(index + 1).every((rest) => rest.trim() === '');
      if (!isLast) throw new Error(`audit log line ${index + 1} is not JSON: ${(error as Error).message}`);
    }
  });
  return records;
}
