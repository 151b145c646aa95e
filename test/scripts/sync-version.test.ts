import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { syncVersion, VERSIONED_MANIFESTS } from '../../scripts/sync-version.js';

const root = resolve(import.meta.dirname, '../..');
const work = await mkdtemp(join(tmpdir(), 'parley-version-'));
afterAll(async () => rm(work, { recursive: true, force: true }));

describe('npm version: one source for every version string', () => {
  it('a new package.json version reaches every manifest, and nothing else in them changes', async () => {
    for (const file of ['package.json', ...VERSIONED_MANIFESTS]) {
      await mkdir(dirname(join(work, file)), { recursive: true });
      await cp(join(root, file), join(work, file));
    }
    const pkg = JSON.parse(await readFile(join(work, 'package.json'), 'utf8'));
    await writeFile(join(work, 'package.json'), JSON.stringify({ ...pkg, version: '9.8.7-rc.1' }));

    expect(await syncVersion(work)).toEqual(VERSIONED_MANIFESTS);
    for (const manifest of VERSIONED_MANIFESTS) {
      const before = await readFile(join(root, manifest), 'utf8');
      const after = await readFile(join(work, manifest), 'utf8');
      expect(after, manifest).toContain('"version": "9.8.7-rc.1"');
      expect(after.replaceAll('9.8.7-rc.1', pkg.version), manifest).toBe(before);
    }
    expect(await syncVersion(work)).toEqual([]);
  });

  it('npm runs it on `npm version`', async () => {
    const { scripts } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    expect(scripts.version).toMatch(/scripts\/sync-version\.ts/);
  });
});
