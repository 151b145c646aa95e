import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BackendError } from '../../../wrapper/backend.js';
import { runCodex } from '../../../wrapper/codex/index.js';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('PARLEY_CODEX_PATH', () => {
  // It was resolved from the allow-list environment codex gets, which drops it: the codex on PATH or in node_modules ran instead.
  it('picks the codex binary parley runs, and does not reach codex itself', async () => {
    const work = await mkdtemp(join(tmpdir(), 'parley-codex-path-'));
    folders.push(work);
    const seen = join(work, 'seen.json');
    const fake = join(work, 'fake-codex.mjs');
    await writeFile(fake, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(seen)}, JSON.stringify({ argv: process.argv.slice(2), env: process.env }));\nprocess.exit(3);\n`);
    await chmod(fake, 0o755);
    const error = await runCodex({ prompt: 'x', env: { PARLEY_CODEX_PATH: fake }, timeoutMs: 10_000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BackendError);
    expect(existsSync(seen)).toBe(true);
    const { argv, env } = JSON.parse(await readFile(seen, 'utf8'));
    expect(argv.slice(0, 1)).toEqual(['exec']);
    expect(env.PARLEY_CODEX_PATH).toBeUndefined();
  });
});
