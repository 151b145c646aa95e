import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLogPathFor, createDocumentStore, deliberationStoreLocation } from '../../state/document-store.js';
import { CounterDoc, makeTempDir } from './helpers.js';

describe('where deliberations live', () => {
  it('defaults under the state home, which PARLEY_STATE_DIR and XDG_STATE_HOME move', () => {
    expect(deliberationStoreLocation({ env: {} })).toEqual({ dir: join(homedir(), '.local', 'state', 'parley', 'deliberations'), filePrefix: '', privateDirs: [join(homedir(), '.local', 'state', 'parley', 'deliberations')] });
    expect(deliberationStoreLocation({ env: { XDG_STATE_HOME: '/x/state' } }).dir).toBe(resolve('/x/state/parley/deliberations'));
    expect(deliberationStoreLocation({ env: { PARLEY_STATE_DIR: '/p', XDG_STATE_HOME: '/x' } }).dir).toBe(resolve('/p/deliberations'));
  });

  it('an explicit folder wins over everything', () => {
    expect(deliberationStoreLocation({ dir: '/mine', env: { PARLEY_STATE_DIR: '/p' } })).toEqual({ dir: resolve('/mine'), filePrefix: '', privateDirs: [resolve('/mine')] });
  });

  it('offers the seed standard-mode place under ~/.claude (or CLAUDE_CONFIG_DIR), by option or PARLEY_STATE_LAYOUT: not parley\'s folder to make private', () => {
    expect(deliberationStoreLocation({ layout: 'claude-home', env: {} })).toEqual({ dir: join(homedir(), '.claude'), filePrefix: 'codex-ask-state.', privateDirs: [] });
    expect(deliberationStoreLocation({ env: { PARLEY_STATE_LAYOUT: 'claude-home', CLAUDE_CONFIG_DIR: '/c' } })).toEqual({
      dir: resolve('/c'),
      filePrefix: 'codex-ask-state.',
      privateDirs: [],
    });
  });

  it('puts the audit log beside the state file and refuses unsafe ids', () => {
    expect(auditLogPathFor('/d', 'abc')).toBe(join('/d', 'abc.audit.jsonl'));
    expect(auditLogPathFor('/d', 'abc', 'codex-ask-state.')).toBe(join('/d', 'codex-ask-state.abc.audit.jsonl'));
    expect(() => auditLogPathFor('/d', '../etc/passwd')).toThrow(expect.objectContaining({ kind: 'invalid-id' }));
  });
});

describe('a store in the claude-home layout', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  it('names files codex-ask-state.<id>.json and lists only those', async () => {
    const { writeFile } = await import('node:fs/promises');
    const location = deliberationStoreLocation({ layout: 'claude-home', env: { CLAUDE_CONFIG_DIR: dir } });
    const store = createDocumentStore({ ...location, schema: CounterDoc, currentVersion: 1 });
    await writeFile(join(dir, 'settings.json'), '{}');
    const created = await store.create('q1', { count: 0, writers: [] });
    expect(created.path).toBe(join(dir, 'codex-ask-state.q1.json'));
    expect((await store.list()).map((entry) => entry.id)).toEqual(['q1']);
  });

  it('leaves the Claude home\'s own permissions alone: it is not parley\'s folder', async () => {
    const { chmod, stat } = await import('node:fs/promises');
    await chmod(dir, 0o755);
    const store = createDocumentStore({ ...deliberationStoreLocation({ layout: 'claude-home', env: { CLAUDE_CONFIG_DIR: dir } }), schema: CounterDoc, currentVersion: 1 });
    await store.create('q1', { count: 0, writers: [] }, { audit: { type: 'create' } });
    expect(((await stat(dir)).mode & 0o777).toString(8)).toBe('755');
    expect(((await stat(store.pathFor('q1'))).mode & 0o777).toString(8)).toBe('600');
  });
});
