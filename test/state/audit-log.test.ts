import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUDIT_WARNING, openAuditLog, parseAuditLines } from '../../state/audit-log.js';

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

  it('a torn last line (a crash mid-append) is skipped with a warning, and the appends after it start on a new line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-audit-'));
    try {
      const path = join(dir, 'audit.jsonl');
      const log = openAuditLog(path);
      for (const type of ['a', 'b', 'c']) await log.append({ type, at: 't' });
      const text = await readFile(path, 'utf8');
      await writeFile(path, text.slice(0, text.length - 8));
      await openAuditLog(path).append({ type: 'd', at: 't' });
      await openAuditLog(path).append({ type: 'e', at: 't' });
      const records = await openAuditLog(path).readAll();
      expect(records.map((r) => r.type)).toEqual(['a', 'b', AUDIT_WARNING, 'd', 'e']);
      expect(records[2]).toMatchObject({ line: 3, warning: expect.stringMatching(/line 3 is not JSON.*skipped/) });
      expect((await readFile(path, 'utf8')).split('\n')).toHaveLength(6);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('never throws on a broken line: it is a warning record, and a record an old append glued to a torn line is kept', () => {
    const records = parseAuditLines('{"type":"a","at":"t"}\nnot json\n{"type":"c","at":"t"}\n{"type":"d","at":"t1{"type":"e","at":"t2"}\n{"type":"f","at":"t"}\n{"type":"g","at');
    expect(records.map((r) => r.type)).toEqual(['a', AUDIT_WARNING, 'c', AUDIT_WARNING, 'e', 'f', AUDIT_WARNING]);
    expect(records.filter((r) => r.type === AUDIT_WARNING).map((r) => r.line)).toEqual([2, 4, 6]);
    expect(records[1]?.at).toBe('t');
  });
});
