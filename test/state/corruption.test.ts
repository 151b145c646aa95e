import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentStore, StoreError, type DocumentStore } from '../../state/document-store.js';
import { CounterDoc, makeTempDir } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let store: DocumentStore<CounterDoc>;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  store = createDocumentStore({ dir, schema: CounterDoc, currentVersion: 2, migrations: { 1: (doc) => doc } });
  await store.create('d1', { count: 7, writers: ['a'] });
});
afterEach(() => cleanup());

async function expectMovedAside(operation: Promise<unknown>, kind: StoreError['kind'], originalText: string) {
  const error = await operation.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StoreError);
  const storeError = error as StoreError;
  expect(storeError.kind).toBe(kind);
  expect(storeError.path).toBe(join(dir, 'd1.json'));
  expect(storeError.movedTo).toMatch(new RegExp(`^${join(dir, 'd1.json')}\\.${kind}-`));
  expect(storeError.message).toContain(storeError.movedTo);
  // preserved byte for byte, never reset
  expect(await readFile(storeError.movedTo!, 'utf8')).toBe(originalText);
  expect(await readdir(dir)).not.toContain('d1.json');
  return storeError;
}

describe('unreadable state files', () => {
  it('a truncated file is a clear corrupt error and is moved aside, on read', async () => {
    const full = await readFile(join(dir, 'd1.json'), 'utf8');
    const truncated = full.slice(0, Math.floor(full.length / 2));
    await writeFile(join(dir, 'd1.json'), truncated);
    const error = await expectMovedAside(store.read('d1'), 'corrupt', truncated);
    expect(error.message).toMatch(/not valid JSON/);
    expect(error.message).toMatch(/nothing was reset/);
  });

  it('an empty file is corrupt, on update, and the update does not recreate it', async () => {
    await writeFile(join(dir, 'd1.json'), '');
    const error = await expectMovedAside(store.update('d1', (doc) => ({ value: doc, result: 0 })), 'corrupt', '');
    expect(error.message).toMatch(/empty/);
    await expect(store.read('d1')).rejects.toMatchObject({ kind: 'not-found' });
  });

  it('a value that breaks the schema is corrupt', async () => {
    const text = JSON.stringify({ schemaVersion: 2, revision: 3, updatedAt: 'x', value: { count: 'seven' } });
    await writeFile(join(dir, 'd1.json'), text);
    const error = await expectMovedAside(store.read('d1'), 'corrupt', text);
    expect(error.message).toMatch(/does not match schema v2/);
  });

  it('a file from a newer program is a future-version error, moved aside', async () => {
    const text = JSON.stringify({ schemaVersion: 9, revision: 3, updatedAt: 'x', value: { anything: true } });
    await writeFile(join(dir, 'd1.json'), text);
    const listed = await store.list();
    expect(listed).toEqual([{ id: 'd1', revision: 3, updatedAt: 'x', problem: 'future-version: schemaVersion 9' }]);
    const error = await expectMovedAside(store.read('d1'), 'future-version', text);
    expect(error.message).toMatch(/schemaVersion 9 is newer than this program's 2/);
  });

  it('a version with no migration path is corrupt, moved aside, never guessed', async () => {
    const text = JSON.stringify({ schemaVersion: 0, revision: 1, updatedAt: 'x', value: { count: 1, writers: [] } });
    await writeFile(join(dir, 'd1.json'), text);
    const error = await expectMovedAside(store.read('d1'), 'corrupt', text);
    expect(error.message).toMatch(/no migration from schemaVersion 0 to 1/);
  });

  it('after a file is moved aside the id can be created afresh only on purpose', async () => {
    await writeFile(join(dir, 'd1.json'), '{');
    await expect(store.read('d1')).rejects.toMatchObject({ kind: 'corrupt' });
    const fresh = await store.create('d1', { count: 0, writers: [] });
    expect(fresh.revision).toBe(1);
    expect((await readdir(dir)).filter((name) => name.startsWith('d1.json.corrupt-'))).toHaveLength(1);
  });
});
