import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentStore, StoreError, type DocumentStore } from '../../state/document-store.js';
import { CounterDoc, faultyFs, makeTempDir, type FaultPoint } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let faults: ReturnType<typeof faultyFs>;
let store: DocumentStore<CounterDoc>;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  faults = faultyFs();
  store = createDocumentStore({ dir, schema: CounterDoc, currentVersion: 1, fs: faults.fs });
  await store.create('d1', { count: 1, writers: [] });
});
afterEach(() => cleanup());

const increment = (doc: CounterDoc) => ({ value: { ...doc, count: doc.count + 1 }, result: null });
const isTemp = (path: string) => path.endsWith('.tmp');

describe('injected I/O failures during a commit', () => {
  const beforeRename: FaultPoint[] = ['open', 'writeFile', 'datasync', 'close', 'rename'];
  for (const point of beforeRename) {
    it(`a ${point} failure leaves the previous revision intact and no temp file behind`, async () => {
      const before = await readFile(join(dir, 'd1.json'), 'utf8');
      faults.failNext(point, point === 'rename' ? (path) => path.endsWith('d1.json') : isTemp);
      const error = await store.update('d1', increment).catch((caught: unknown) => caught);
      expect(faults.hits).toHaveLength(1);
      expect(error).toBeInstanceOf(StoreError);
      expect(error).toMatchObject({ kind: 'io', path: join(dir, 'd1.json') });
      expect((error as Error).message).toMatch(/revision 1 is intact/);
      expect(await readFile(join(dir, 'd1.json'), 'utf8')).toBe(before);
      expect((await readdir(dir)).sort()).toEqual(['d1.json']);
      // the lock was released and the store still works
      expect((await store.update('d1', increment)).revision).toBe(2);
    });
  }

  it('a folder sync failure after the rename says the new revision is in place but not yet durable', async () => {
    faults.failNext('dir-sync', (path) => path === dir);
    const error = await store.update('d1', increment).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'io' });
    expect((error as Error).message).toMatch(/revision 2 .* is in place but its folder sync failed/);
    expect((await store.read('d1')).revision).toBe(2);
  });

  it('a failed create leaves no file, so the id stays free', async () => {
    faults.failNext('datasync', isTemp);
    await expect(store.create('d2', { count: 0, writers: [] })).rejects.toMatchObject({ kind: 'io' });
    await expect(store.read('d2')).rejects.toMatchObject({ kind: 'not-found' });
    expect((await store.create('d2', { count: 0, writers: [] })).revision).toBe(1);
  });

  it('when a corrupt file cannot be moved aside the error says so and the file stays put', async () => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dir, 'd1.json'), 'garbage');
    faults.failNext('rename', (path) => path.includes('.corrupt-'));
    const error = await store.update('d1', increment).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'io' });
    expect((error as Error).message).toMatch(/could not be moved aside/);
    expect(await readFile(join(dir, 'd1.json'), 'utf8')).toBe('garbage');
  });
});
