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
  /** Appends one JSON line and fsyncs it before resolving. */
  append(record: Omit<AuditRecord, 'at'> & { at?: string }): Promise<AuditRecord>;
  /** Every complete record; a torn last line (a crash mid-append) is ignored, never fatal. */
  readAll(): Promise<AuditRecord[]>;
}

export function openAuditLog(path: string): AuditLog {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    path,
    append(record) {
      const full = { ...record, at: record.at ?? new Date().toISOString() } as AuditRecord;
      const line = JSON.stringify(full) + '\n';
      // Serialize appends from this process so lines never interleave.
      const next = queue.then(async () => {
        await mkdir(dirname(path), { recursive: true });
        const handle = await open(path, 'a');
        try {
          await handle.writeFile(line, 'utf8');
          await handle.sync();
        } finally {
          await handle.close();
        }
        return full;
      });
      queue = next.catch(() => undefined);
      return next;
    },
    async readAll() {
      await queue;
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
