import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmod, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileExclusive, replaceIfUnchanged } from '../../state/decision-files.js';

// The two writes parley makes into a team's decision folder: a new file that must not exist, and an
// edit of a file that must still read what parley read.
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-decision-files-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('decision files', () => {
  it('a new record never replaces a file of the same name', async () => {
    await writeFile(join(dir, '0012-x.md'), 'the team wrote this');
    await expect(createFileExclusive(dir, '0012-x.md', 'parley wrote this')).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await readFile(join(dir, '0012-x.md'), 'utf8')).toBe('the team wrote this');
    expect(await createFileExclusive(join(dir, 'new', 'adr'), '0001-y.md', 'first')).toBe(join(dir, 'new', 'adr', '0001-y.md'));
  });

  it('an edit applies only to the text it was made from, atomically, keeping the file mode', async () => {
    const path = join(dir, '0007-x.md');
    await writeFile(path, '* Status: accepted\n');
    await chmod(path, 0o644);
    expect(await replaceIfUnchanged(path, '* Status: proposed\n', '* Status: superseded by [ADR-0012](0012-x.md)\n')).toBe(false);
    expect(await readFile(path, 'utf8')).toBe('* Status: accepted\n');
    expect(await replaceIfUnchanged(path, '* Status: accepted\n', '* Status: superseded by [ADR-0012](0012-x.md)\n')).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('* Status: superseded by [ADR-0012](0012-x.md)\n');
    expect((await stat(path)).mode & 0o777).toBe(0o644);
    expect(await readdir(dir)).toEqual(['0007-x.md']);
  });
});
