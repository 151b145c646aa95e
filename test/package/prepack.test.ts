/**
 * `npm pack` builds what it packs (prepack): a checkout where `npm run build` never ran still packs
 * the built server. Packed from a copy of this checkout's tracked files without dist/, so the tests
 * running from this checkout's dist/ are not touched.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';

const root = resolve(import.meta.dirname, '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const KEEP_NPM = new Set(['npm_config_cache', 'npm_config_userconfig', 'npm_config_registry', 'npm_config_cafile']);
const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) || KEEP_NPM.has(key.toLowerCase())));

let work: string | undefined;
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('builds dist/ first (prepack), so a tarball never depends on whether `npm run build` ran', async () => {
    work = await mkdtemp(join(tmpdir(), 'parley-prepack-'));
    const checkout = join(work, 'checkout');
    const tracked = (await execa('git', ['ls-files', '-z'], { cwd: root })).stdout.split('\0').filter(Boolean);
    for (const file of tracked) {
      if (!existsSync(join(root, file))) continue; // deleted in the working tree, not yet committed
      await mkdir(dirname(join(checkout, file)), { recursive: true });
      await copyFile(join(root, file), join(checkout, file));
    }
    await symlink(join(root, 'node_modules'), join(checkout, 'node_modules'), 'dir');
    expect(existsSync(join(checkout, 'dist'))).toBe(false);

    const pack = await execa(npm, ['pack', '--json', '--pack-destination', work], { env: npmEnv, extendEnv: false, cwd: checkout, timeout: 240_000 });
    const files = (JSON.parse(pack.stdout) as { files: { path: string; size: number }[] }[])[0]!.files;
    const main = files.find((file) => file.path === 'dist/cli/main.js');
    expect(main?.size).toBeGreaterThan(0);
    expect(files.filter((file) => file.path.startsWith('dist/') && file.path.endsWith('.js')).length).toBeGreaterThan(50);
  }, 300_000);
});
