import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAuditLog } from '../../state/audit-log.js';

describe('the append-only audit log', () => {
  it('keeps every line of concurrent appends, in call order, each resolved once written', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-audit-'));
    try {
      const log = openAuditLog(join(dir, 'sub', 'audit.jsonl'));
      const appended = await Promise.all(Array.from({ length: 200 }, (_, i) => log.append({ type: 'step', i })));
      expect(appended.map((record) => record.i)).toEqual(Array.from({ length: 200 }, (_, i) => i));
      // Appends made from the continuation of an earlier append (the flush-ending race) are not lost.
      await log.append({ type: 'first' }).then(() => log.append({ type: 'chained' }));
      const records = await log.readAll();
      expect(records.map((record) => record.i ?? record.type)).toEqual([...Array.from({ length: 200 }, (_, i) => i), 'first', 'chained']);
      const lines = (await readFile(log.path, 'utf8')).trim().split('\n');
      expect(lines).toHaveLength(202);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('ignores a torn last line, but not a broken line in the middle', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-audit-'));
    try {
      const path = join(dir, 'audit.jsonl');
      await writeFile(path, '{"type":"a","at":"t"}\n{"type":"b","at":"t"}\n{"type":"c","at');
      expect((await openAuditLog(path).readAll()).map((r) => r.type)).toEqual(['a', 'b']);
      await writeFile(path, '{"type":"a","at":"t"}\nnot json\n{"type":"c","at":"t"}\n');
      await expect(openAuditLog(path).readAll()).rejects.toThrow(/line 2 is not JSON/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
