import { describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { bundlePath, bundleServer, skillCopies } from '../../scripts/bundle.js';

describe('the installable plugin folder (plugin/)', () => {
  it('equals a fresh bundle of the sources: run `npm run bundle` and commit it when this fails', async () => {
    const [committed, fresh] = await Promise.all([readFile(bundlePath, 'utf8'), bundleServer()]);
    expect(committed.length).toBeGreaterThan(100_000);
    expect(committed === fresh, 'plugin/parley-server.mjs is stale: run `npm run bundle` and commit it').toBe(true);
  });

  it('holds the skill exactly as SKILL.md and skill/ say it: run `npm run bundle` when this fails', async () => {
    const copies = await skillCopies();
    expect(copies.size).toBeGreaterThan(2);
    for (const [target, text] of copies) {
      expect(await readFile(target, 'utf8').catch(() => 'missing'), `${target} is stale: run \`npm run bundle\``).toBe(text);
    }
  });

  it('runs on its own, copied where no node_modules can be found', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'parley-bundle-'));
    try {
      const alone = path.join(dir, 'parley-server.mjs');
      await copyFile(bundlePath, alone);
      const { stdout } = await execa(process.execPath, [alone, 'tools'], { cwd: dir, timeout: 30_000 });
      expect(stdout).toContain('| `delib_start` |');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
