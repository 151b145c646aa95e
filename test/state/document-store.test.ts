import { readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDocumentStore, StoreError, type DocumentStore } from '../../state/document-store.js';
import { CounterDoc, makeTempDir } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let store: DocumentStore<CounterDoc>;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  store = createDocumentStore({ dir, schema: CounterDoc, currentVersion: 1, summarize: (doc) => ({ count: doc.count }) });
});
afterEach(() => cleanup());

const increment = (doc: CounterDoc) => ({ value: { ...doc, count: doc.count + 1 }, result: doc.count + 1 });

describe('document store', () => {
  it('creates, reads and updates with a revision counter and a documented envelope', async () => {
    const created = await store.create('d1', { count: 0, writers: [] });
    expect(created).toEqual({ value: { count: 0, writers: [] }, revision: 1, path: join(dir, 'd1.json') });
    const updated = await store.update('d1', increment);
    expect(updated).toEqual({ revision: 2, value: { count: 1, writers: [] }, result: 1, changed: true });
    expect(await store.read('d1')).toEqual({ value: { count: 1, writers: [] }, revision: 2, path: join(dir, 'd1.json') });
    const onDisk = JSON.parse(await readFile(join(dir, 'd1.json'), 'utf8'));
    expect(onDisk).toMatchObject({ schemaVersion: 1, revision: 2, summary: { count: 1 }, value: { count: 1, writers: [] } });
    expect(Date.parse(onDisk.updatedAt)).not.toBeNaN();
    expect(onDisk.createdAt <= onDisk.updatedAt).toBe(true);
  });

  it('refuses to create a document twice and reports a missing one clearly', async () => {
    await store.create('d1', { count: 0, writers: [] });
    await expect(store.create('d1', { count: 5, writers: [] })).rejects.toMatchObject({ kind: 'exists' });
    expect((await store.read('d1')).value.count).toBe(0);
    await expect(store.read('nope')).rejects.toMatchObject({ kind: 'not-found', path: join(dir, 'nope.json') });
    await expect(store.update('nope', increment)).rejects.toBeInstanceOf(StoreError);
  });

  it('a refusal writes nothing and keeps the revision', async () => {
    await store.create('d1', { count: 0, writers: [] });
    const before = await readFile(join(dir, 'd1.json'), 'utf8');
    const refused = await store.update('d1', () => ({ refuse: 'phase gate: not in triage' }));
    expect(refused).toEqual({ revision: 1, value: { count: 0, writers: [] }, result: 'phase gate: not in triage', changed: false });
    expect(await readFile(join(dir, 'd1.json'), 'utf8')).toBe(before);
  });

  it('an update that changes nothing does not bump the revision', async () => {
    await store.create('d1', { count: 0, writers: [] });
    const same = await store.update('d1', (doc) => ({ value: { ...doc }, result: 'same' }));
    expect(same).toMatchObject({ revision: 1, changed: false, result: 'same' });
  });

  it('checks expectRevision at commit', async () => {
    await store.create('d1', { count: 0, writers: [] });
    await store.update('d1', increment, { expectRevision: 1 });
    const conflict = await store.update('d1', increment, { expectRevision: 1 }).catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(StoreError);
    expect(conflict).toMatchObject({ kind: 'revision-conflict' });
    expect((conflict as Error).message).toMatch(/revision 2, not 1/);
    expect((await store.read('d1')).revision).toBe(2);
  });

  it('rejects an apply that throws, returns a promise or produces an invalid document, leaving the file alone', async () => {
    await store.create('d1', { count: 0, writers: [] });
    await expect(store.update('d1', () => ({ value: { count: -1, writers: [] }, result: null }))).rejects.toThrow(/schema/);
    const asyncApply = (async () => ({ value: { count: 9, writers: [] }, result: null })) as any;
    await expect(store.update('d1', asyncApply)).rejects.toThrow(/synchronous/);
    await expect(
      store.update('d1', () => {
        throw new Error('rule bug');
      }),
    ).rejects.toThrow('rule bug');
    expect(await store.read('d1')).toMatchObject({ revision: 1, value: { count: 0 } });
    // the lock was released each time
    expect((await store.update('d1', increment)).revision).toBe(2);
  });

  it('refuses ids that could escape the folder', async () => {
    for (const id of ['../evil', 'a/b', '.hidden', '', 'a.b', 'x'.repeat(65), '-dash']) {
      await expect(store.create(id, { count: 0, writers: [] })).rejects.toMatchObject({ kind: 'invalid-id' });
      await expect(store.read(id)).rejects.toMatchObject({ kind: 'invalid-id' });
    }
    expect(() => store.auditLogPath('../x')).toThrow(StoreError);
    expect(await readdir(dir)).toEqual([]);
  });

  it('lists documents newest first with their summary, ignoring locks, temps, logs and moved-aside files', async () => {
    let clock = Date.parse('2026-01-01T00:00:00Z');
    store = createDocumentStore({
      dir,
      schema: CounterDoc,
      currentVersion: 1,
      summarize: (doc) => ({ count: doc.count }),
      now: () => new Date((clock += 1000)),
    });
    await store.create('older', { count: 0, writers: [] });
    await store.create('newer', { count: 3, writers: [] });
    await store.update('older', increment, { audit: { type: 'move' } });
    await writeFile(join(dir, 'junk.json.corrupt-1'), 'x');
    await writeFile(join(dir, '.older.json.123.abcdefabcdef.tmp'), 'x');
    await writeFile(join(dir, 'broken.json'), '{"schemaVersion":');
    const listed = await store.list();
    expect(listed.map((entry) => [entry.id, entry.revision, entry.summary])).toEqual([
      ['older', 2, { count: 1 }],
      ['newer', 1, { count: 3 }],
      ['broken', 0, undefined],
    ]);
    expect(listed[2]?.problem).toMatch(/corrupt/);
  });

  it('a listing never deletes anything, not even temp files abandoned by killed writers', async () => {
    await store.create('d1', { count: 0, writers: [] });
    const abandoned = join(dir, '.d1.json.999999.abcdefabcdef.tmp');
    await writeFile(abandoned, 'partial');
    const past = new Date(Date.now() - 3_600_000);
    await utimes(abandoned, past, past);
    await store.list();
    expect((await readdir(dir)).sort()).toEqual(['.d1.json.999999.abcdefabcdef.tmp', 'd1.json']);
  });

  it('runs afterCommit under the lock once a change is committed and audited, never for a refusal or a no-op', async () => {
    await store.create('d1', { count: 0, writers: [] });
    const seen: string[] = [];
    const afterCommit = async (doc: CounterDoc, revision: number) => {
      // The change is on disk and audited when it runs; the lock is still held.
      const onDisk = JSON.parse(await readFile(join(dir, 'd1.json'), 'utf8'));
      const audited = (await readFile(join(dir, 'd1.audit.jsonl'), 'utf8')).trim().split('\n').length;
      const locked = (await readdir(dir)).includes('d1.json.lock');
      seen.push(`r${revision} count=${doc.count} disk=${onDisk.value.count} audit=${audited} locked=${locked}`);
    };
    await store.update('d1', increment, { audit: { type: 'move' }, afterCommit });
    await store.update('d1', () => ({ refuse: 'no' }), { audit: { type: 'move' }, afterCommit });
    await store.update('d1', (doc) => ({ value: doc, result: 'same' }), { audit: { type: 'move' }, afterCommit });
    expect(seen).toEqual(['r2 count=1 disk=1 audit=1 locked=true']);
  });

  it("sweeps the temp file of a killed writer of the document's report, as of its state file, and no other", async () => {
    await store.create('d1', { count: 0, writers: [] });
    const past = new Date(Date.now() - 3_600_000);
    const leftovers = ['.d1.json.999999.abcdefabcdef.tmp', '.d1.report.md.999999.abcdefabcdef.tmp', '.d10.report.md.999999.abcdefabcdef.tmp', '.d1.notes.md.999999.abcdefabcdef.tmp'];
    for (const name of leftovers) {
      await writeFile(join(dir, name), 'partial');
      await utimes(join(dir, name), past, past);
    }
    // A store new to the folder sweeps at its first write (a process sweeps each document at most once a second).
    await createDocumentStore({ dir, schema: CounterDoc, currentVersion: 1 }).update('d1', increment);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp')).sort()).toEqual(['.d1.notes.md.999999.abcdefabcdef.tmp', '.d10.report.md.999999.abcdefabcdef.tmp']);
  });

  it('recreates its folder if it was deleted while the store was in use', async () => {
    await store.create('d1', { count: 0, writers: [] });
    await cleanup();
    expect((await store.create('d1', { count: 2, writers: [] })).revision).toBe(1);
    expect((await store.read('d1')).value.count).toBe(2);
  });

  it('removes a document', async () => {
    await store.create('d1', { count: 0, writers: [] });
    await store.remove('d1');
    await expect(store.read('d1')).rejects.toMatchObject({ kind: 'not-found' });
    await expect(store.remove('d1')).rejects.toMatchObject({ kind: 'not-found' });
    expect(await store.list()).toEqual([]);
  });

  it('records every move and its result in the audit log beside the state file, refusals included', async () => {
    await store.create('d1', { count: 0, writers: [] }, { audit: { type: 'created' } });
    await store.update('d1', increment, { audit: { type: 'move', move: 'inc' } });
    await store.update('d1', () => ({ refuse: { rule: 'cap' } }), { audit: { type: 'move', move: 'bad' } });
    expect(store.auditLogPath('d1')).toBe(join(dir, 'd1.audit.jsonl'));
    const records = await store.auditLog('d1').readAll();
    expect(records.map(({ at: _at, ...rest }) => rest)).toEqual([
      { type: 'created', id: 'd1', revision: 1, changed: true },
      { type: 'move', move: 'inc', id: 'd1', revision: 2, changed: true, result: 1 },
      { type: 'move', move: 'bad', id: 'd1', revision: 2, changed: false, result: { rule: 'cap' } },
    ]);
  });

  it('serializes concurrent updates inside one process without losing any', async () => {
    await store.create('d1', { count: 0, writers: [] });
    await Promise.all(Array.from({ length: 40 }, () => store.update('d1', increment)));
    expect(await store.read('d1')).toMatchObject({ revision: 41, value: { count: 40 } });
  });
});

describe('migrations', () => {
  const V1 = z.object({ n: z.number() });
  const V3 = z.object({ count: z.number(), label: z.string() });

  it('applies migrations in order on read and writes the current version on the next update', async () => {
    const v1 = createDocumentStore({ dir, schema: V1, currentVersion: 1 });
    await v1.create('old', { n: 4 });
    const v3 = createDocumentStore({
      dir,
      schema: V3,
      currentVersion: 3,
      migrations: {
        1: (doc: { n: number }) => ({ count: doc.n }),
        2: (doc: { count: number }) => ({ ...doc, label: `was ${doc.count}` }),
      },
    });
    expect(await v3.read('old')).toMatchObject({ revision: 1, value: { count: 4, label: 'was 4' } });
    const onDiskBefore = JSON.parse(await readFile(join(dir, 'old.json'), 'utf8'));
    expect(onDiskBefore.schemaVersion).toBe(1);
    await v3.update('old', (doc) => ({ value: doc, result: null }));
    const onDiskAfter = JSON.parse(await readFile(join(dir, 'old.json'), 'utf8'));
    expect(onDiskAfter).toMatchObject({ schemaVersion: 3, revision: 2, value: { count: 4, label: 'was 4' } });
  });
});
