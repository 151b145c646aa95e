import { describe, expect, it } from 'vitest';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { bundlePath, bundleServer, committedBundle, repoRoot, skillCopies } from '../../scripts/bundle.js';

describe('the installable plugin folder (plugin/)', () => {
  it('equals a fresh bundle of the sources: run `npm run bundle` and commit it when this fails', async () => {
    const [committed, fresh] = await Promise.all([committedBundle(), bundleServer()]);
    expect(committed.get(bundlePath)?.length).toBeGreaterThan(1_000);
    expect([...committed.keys()].sort(), 'plugin/ lists other files than a fresh bundle: run `npm run bundle` and commit it').toEqual([...fresh.keys()].sort());
    for (const [file, text] of fresh) {
      expect(committed.get(file) === text, `${path.relative(repoRoot, file)} is stale: run \`npm run bundle\` and commit it`).toBe(true);
    }
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
      // The entry and its chunks, as a marketplace install copies plugin/.
      await cp(path.join(repoRoot, 'plugin'), dir, { recursive: true });
      const alone = path.join(dir, 'parley-server.mjs');
      const { stdout } = await execa(process.execPath, [alone, 'tools'], { cwd: dir, timeout: 30_000 });
      expect(stdout).toContain('| `delib_start` |');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
