import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
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

async function expectUntouched(operation: Promise<unknown>, kind: StoreError['kind'], text: string) {
  const error = await operation.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StoreError);
  expect(error).toMatchObject({ kind, path: join(dir, 'd1.json') });
  expect((error as StoreError).movedTo).toBeUndefined();
  expect(await readFile(join(dir, 'd1.json'), 'utf8')).toBe(text);
  expect(await readdir(dir)).toEqual(['d1.json']);
  return error as StoreError;
}

describe('unreadable state files', () => {
  it('a read never moves a file: a truncated one is a clear corrupt error and stays where it is', async () => {
    const full = await readFile(join(dir, 'd1.json'), 'utf8');
    const truncated = full.slice(0, Math.floor(full.length / 2));
    await writeFile(join(dir, 'd1.json'), truncated);
    const error = await expectUntouched(store.read('d1'), 'corrupt', truncated);
    expect(error.message).toMatch(/not valid JSON/);
    expect(error.message).toMatch(/left as it is/);
  });

  it('a truncated file is moved aside by the next write, byte for byte', async () => {
    const full = await readFile(join(dir, 'd1.json'), 'utf8');
    const truncated = full.slice(0, Math.floor(full.length / 2));
    await writeFile(join(dir, 'd1.json'), truncated);
    const error = await expectMovedAside(store.update('d1', (doc) => ({ value: doc, result: 0 })), 'corrupt', truncated);
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
    const error = await expectUntouched(store.read('d1'), 'corrupt', text);
    expect(error.message).toMatch(/does not match schema v2/);
    await expectMovedAside(store.update('d1', (doc) => ({ value: doc, result: 0 })), 'corrupt', text);
  });

  it('a file from a newer program is refused by reads and writes alike, and never moved', async () => {
    const text = JSON.stringify({ schemaVersion: 9, revision: 3, updatedAt: 'x', value: { anything: true } });
    await writeFile(join(dir, 'd1.json'), text);
    const listed = await store.list();
    expect(listed).toEqual([{ id: 'd1', revision: 3, updatedAt: 'x', problem: 'future-version: schemaVersion 9' }]);
    const error = await expectUntouched(store.read('d1'), 'future-version', text);
    expect(error.message).toMatch(/schemaVersion 9 is newer than this program's 2/);
    expect(error.message).toMatch(/upgrade parley/);
    await expectUntouched(store.update('d1', (doc) => ({ value: doc, result: 0 })), 'future-version', text);
    await expectUntouched(store.create('d1', { count: 0, writers: [] }), 'exists', text);
    expect(await store.list()).toEqual(listed);
  });

  it('a version with no migration path is corrupt, never guessed', async () => {
    const text = JSON.stringify({ schemaVersion: 0, revision: 1, updatedAt: 'x', value: { count: 1, writers: [] } });
    await writeFile(join(dir, 'd1.json'), text);
    const error = await expectUntouched(store.read('d1'), 'corrupt', text);
    expect(error.message).toMatch(/no migration from schemaVersion 0 to 1/);
  });

  it('after a file is moved aside the id can be created afresh only on purpose', async () => {
    await writeFile(join(dir, 'd1.json'), '{');
    await expect(store.update('d1', (doc) => ({ value: doc, result: 0 }))).rejects.toMatchObject({ kind: 'corrupt' });
    const fresh = await store.create('d1', { count: 0, writers: [] });
    expect(fresh.revision).toBe(1);
    expect((await readdir(dir)).filter((name) => name.startsWith('d1.json.corrupt-'))).toHaveLength(1);
  });

  it('a folder named <id>.json is a problem entry in the listing, not a failed listing', async () => {
    await mkdir(join(dir, 'odd.json'));
    await store.create('d2', { count: 1, writers: [] });
    const listed = await store.list();
    expect(listed.map((entry) => entry.id).sort()).toEqual(['d1', 'd2', 'odd']);
    expect(listed.find((entry) => entry.id === 'odd')).toMatchObject({ revision: 0, problem: expect.stringMatching(/not a file/) });
    await expect(store.read('odd')).rejects.toMatchObject({ kind: 'corrupt', message: expect.stringMatching(/not a file/) });
    await expect(store.update('odd', (doc) => ({ value: doc, result: 0 }))).rejects.toMatchObject({ kind: 'corrupt' });
    expect(await readdir(dir)).toContain('odd.json');
  });
});
