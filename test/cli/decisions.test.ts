import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_FOLDER } from '../protocols/decisions/fixture.js';
import { runParley } from './run-parley.js';

// `parley decisions list|search|show` as a person runs it, inside a repository (here from a subfolder of it).
let repo: string;
let sub: string;
beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'parley-cli-decisions-'));
  await mkdir(join(repo, '.git'));
  await cp(FIXTURE_FOLDER, join(repo, 'architecture'), { recursive: true });
  sub = join(repo, 'src');
  await mkdir(sub);
});
afterAll(async () => rm(repo, { recursive: true, force: true }));

describe('parley decisions', () => {
  it('search: each related record on its own line, its four-digit number and title first; standing ones that may contradict named', async () => {
    const ran = await runParley(['decisions', 'search', '--dir', 'architecture', 'Do we need a second database engine for the catalog?'], { cwd: sub });
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    const lines = ran.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 3).map((line) => line.slice(0, 6))).toEqual(['0032  ', '0002  ', '0024  ']);
    expect(lines[0]).toBe('0032  Store the product catalog in MongoDB  (2024-02-27, accepted)');
    expect(lines[3]).toMatch(/^0002 and 0032 both stand and answer the same question: they may contradict/);
  });

  it('search says plainly when nothing is related', async () => {
    const ran = await runParley(['decisions', 'search', '--dir', 'architecture', 'kitchen', 'paint'], { cwd: sub });
    expect(ran).toMatchObject({ code: 0, stderr: '', stdout: 'No decision record in architecture is related to "kitchen paint" (35 searched).\n' });
  });

  it('list and show: every record a line; one record as written', async () => {
    const list = await runParley(['decisions', 'list', '--dir', 'architecture'], { cwd: sub });
    expect(list.stdout.split('\n')).toEqual(expect.arrayContaining(['0007  Keep user sessions in Redis  (2021-08-12, superseded by 0031)', '35 records in architecture, 30 standing.']));
    const show = await runParley(['decisions', 'show', 'ADR-7', '--dir', 'architecture'], { cwd: sub });
    expect(show.stdout).toBe(await readFile(join(repo, 'architecture', '0007-keep-user-sessions-in-redis.md'), 'utf8'));
  });

  it('outside a repository with records, or for a number the folder lacks: one line on stderr and exit 1', async () => {
    const none = await runParley(['decisions', 'list'], { cwd: sub });
    expect(none).toMatchObject({ code: 1, stdout: '' });
    expect(none.stderr).toBe(`parley decisions list: no decision folder in ${repo} (looked for .adr-dir, docs/adr, docs/decisions, doc/adr, adr): run inside the repository, or name the folder (parley decisions --dir)\n`);
    const missing = await runParley(['decisions', 'show', '99', '--dir', 'architecture'], { cwd: sub });
    expect(missing).toMatchObject({ code: 1, stderr: 'parley decisions show: no record 0099 in architecture (it holds 0001 to 0035)\n' });
  });
});
