import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BackendError } from '../../wrapper/backend.js';
import { resolveClaudeBinary } from '../../wrapper/claude-cli.js';
import { createBackend } from '../../wrapper/model-spec.js';

const dir = await mkdtemp(join(tmpdir(), 'parley-claude-path-'));
afterAll(async () => rm(dir, { recursive: true, force: true }));
const onPath = join(dir, 'bin');
await mkdir(onPath);
await writeFile(join(onPath, 'claude'), '#!/bin/sh\n');
await chmod(join(onPath, 'claude'), 0o755);
const elsewhere = join(dir, 'my-claude');
await writeFile(elsewhere, '#!/bin/sh\n');
await chmod(elsewhere, 0o755);
const packageOwn = resolve('node_modules/.bin/claude');

function refusal(run: () => unknown): BackendError {
  try {
    run();
  } catch (error) {
    if (error instanceof BackendError) return error;
    throw error;
  }
  throw new Error('expected a BackendError');
}

describe('resolveClaudeBinary', () => {
  it('takes the binPath option, then PARLEY_CLAUDE_PATH, then claude on PATH, then the package’s own binary', () => {
    const env = { PATH: onPath, PARLEY_CLAUDE_PATH: elsewhere };
    expect(resolveClaudeBinary({ binPath: join(onPath, 'claude'), env })).toBe(join(onPath, 'claude'));
    expect(resolveClaudeBinary({ env })).toBe(elsewhere);
    expect(resolveClaudeBinary({ env: { PATH: onPath } })).toBe(join(onPath, 'claude'));
    expect(resolveClaudeBinary({ env: { PATH: join(dir, 'nothing-here') } })).toBe(packageOwn);
  });

  it('refuses a PARLEY_CLAUDE_PATH that is relative or names no file, saying which and how to fix it', () => {
    const relative = refusal(() => resolveClaudeBinary({ env: { PATH: onPath, PARLEY_CLAUDE_PATH: 'bin/claude' } }));
    expect(relative.kind).toBe('not-found');
    expect(relative.message).toMatch(/PARLEY_CLAUDE_PATH must be an absolute path to the claude binary, not "bin\/claude"/);
    const missing = refusal(() => resolveClaudeBinary({ env: { PATH: onPath, PARLEY_CLAUDE_PATH: join(dir, 'gone') } }));
    expect(missing.message).toMatch(/PARLEY_CLAUDE_PATH is .*gone, which is not an existing file: install it with `npm install -g @anthropic-ai\/claude-code`/);
    expect(refusal(() => resolveClaudeBinary({ env: { PATH: onPath, PARLEY_CLAUDE_PATH: onPath } })).message).toMatch(/not an existing file/);
  });

  it('a claude backend whose PARLEY_CLAUDE_PATH is wrong fails its call as not-found with that reason', async () => {
    const backend = createBackend('claude:sonnet', { env: { PATH: onPath, PARLEY_CLAUDE_PATH: join(dir, 'gone') } });
    const error = await backend.send({ history: [] }, 'x').then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(BackendError);
    expect((error as BackendError).kind).toBe('not-found');
    expect((error as BackendError).message).toMatch(/PARLEY_CLAUDE_PATH/);
  });
});
