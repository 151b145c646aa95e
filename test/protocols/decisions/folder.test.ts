import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDecisionFolder, parseDecisionRecord, searchDecisions, writeDecisionRecord } from '../../../protocols/decisions/index.js';
import { FIXTURE_FOLDER } from './fixture.js';

const MARKDOWN = (title: string, id = 'd-20250102-120000-abc123') =>
  `---\nstatus: accepted\ndate: 2025-01-02\n---\n\n# ${title}\n\n## Context and Problem Statement\n\n${title}\n\n## More Information\n\nDeliberation ${id} (minimal mode, 2 iterations). The full report.\n`;

let scratch: string;
let repo: string;
beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'parley-decisions-'));
  repo = join(scratch, 'repo');
  await mkdir(join(repo, '.git'), { recursive: true });
});
afterEach(async () => rm(scratch, { recursive: true, force: true }));

const withFixture = async () => cp(FIXTURE_FOLDER, join(repo, 'docs', 'adr'), { recursive: true });
const read = (path: string) => readFile(join(repo, path), 'utf8');

describe('a decision folder in the repository', () => {
  it('is found from a subfolder of the repository, with its 35 records', async () => {
    await withFixture();
    await mkdir(join(repo, 'src', 'server'), { recursive: true });
    const folder = await openDecisionFolder(join(repo, 'src', 'server'));
    expect(folder).toMatchObject({ root: repo, folder: 'docs/adr' });
    expect(folder?.records).toHaveLength(35);
    expect(await openDecisionFolder(scratch)).toBeUndefined();
  });

  it('is read and indexed once while it does not change; a record added, edited or removed is searched at once', async () => {
    await withFixture();
    const question = 'Should user sessions stay in Redis?';
    const first = await searchDecisions(repo, question);
    const again = await searchDecisions(repo, 'Where do sessions live?');
    // The same read of the folder serves both searches.
    expect(again?.folder).toBe(first?.folder);

    await writeFile(join(repo, 'docs/adr/0036-keep-user-sessions-in-memcached.md'), MARKDOWN('Keep user sessions in Memcached'));
    const added = await searchDecisions(repo, question);
    expect(added?.folder).not.toBe(first?.folder);
    expect(added?.hits.map((h) => h.record.id)).toContain('0036');

    await writeFile(join(repo, 'docs/adr/0036-keep-user-sessions-in-memcached.md'), MARKDOWN('Keep user sessions in Memcached, sharded'));
    const edited = await searchDecisions(repo, question);
    expect(edited?.folder.records.find((r) => r.id === '0036')?.title).toBe('Keep user sessions in Memcached, sharded');

    await rm(join(repo, 'docs/adr/0036-keep-user-sessions-in-memcached.md'));
    expect((await searchDecisions(repo, question))?.folder.records.map((r) => r.id)).not.toContain('0036');
  });

  it('takes a record numbered after the folder\'s own, and links the record it supersedes both ways, touching nothing else', async () => {
    await withFixture();
    const before = new Map(await Promise.all((await readdir(join(repo, 'docs/adr'))).map(async (f) => [f, await read(`docs/adr/${f}`)] as const)));
    const written = await writeDecisionRecord(repo, { markdown: MARKDOWN('Move sessions back to Redis'), deliberationId: 'd-20250102-120000-abc123', supersedes: ['31'] });
    expect(written).toEqual({ file: 'docs/adr/0036-move-sessions-back-to-redis.md', number: '0036', written: true, superseded: ['0031'], notes: [] });
    const created = parseDecisionRecord('0036-move-sessions-back-to-redis.md', await read(written.file));
    expect(created).toMatchObject({ supersedes: ['0031'], status: 'accepted', deliberation: 'd-20250102-120000-abc123' });
    const old = await read('docs/adr/0031-keep-sessions-in-signed-encrypted-cookies.md');
    expect(old).toBe((before.get('0031-keep-sessions-in-signed-encrypted-cookies.md') ?? '').replace('status: accepted', 'status: superseded by ADR-0036'));
    for (const [file, text] of before) if (!file.startsWith('0031')) expect(await read(`docs/adr/${file}`), file).toBe(text);
    // The search now shows which one stands.
    const search = await searchDecisions(repo, 'Should sessions live in cookies or in Redis?');
    expect(search?.hits.map((h) => `${h.record.id} ${h.record.supersededBy ?? 'stands'}`)).toEqual(expect.arrayContaining(['0036 stands', '0031 0036']));
  });

  it('never writes a deliberation twice: the record the user edited since stays theirs', async () => {
    await withFixture();
    const first = await writeDecisionRecord(repo, { markdown: MARKDOWN('Move sessions back to Redis'), deliberationId: 'd-20250102-120000-abc123' });
    await writeFile(join(repo, first.file), `${await read(first.file)}\nEdited by the team.\n`);
    const edited = await read(first.file);
    const again = await writeDecisionRecord(repo, { markdown: MARKDOWN('Move sessions back to Redis'), deliberationId: 'd-20250102-120000-abc123', supersedes: ['0031'] });
    expect(again).toEqual({ file: first.file, number: '0036', written: false, superseded: [], notes: [`deliberation d-20250102-120000-abc123 is already recorded as ${first.file}: nothing written (edit that file to change it)`] });
    expect(await read(first.file)).toBe(edited);
    expect((await readdir(join(repo, 'docs/adr'))).filter((f) => f.startsWith('0037'))).toEqual([]);
    expect(await read('docs/adr/0031-keep-sessions-in-signed-encrypted-cookies.md')).toContain('status: accepted');
  });

  it('writes a model\'s control characters as escapes, as every report does', async () => {
    await withFixture();
    const written = await writeDecisionRecord(repo, { markdown: MARKDOWN('Use NATS\u001b]0;owned\u0007 now'), deliberationId: 'd-7' });
    const text = await read(written.file);
    expect(text).toContain('# Use NATS\\u001b]0;owned\\u0007 now');
    expect([...text].filter((c) => c < ' ' && c !== '\n')).toEqual([]);
  });

  it('leaves a record whose status the user set to something else, and says so', async () => {
    await withFixture();
    const deprecated = await read('docs/adr/0035-format-dates-with-moment-js.md');
    const written = await writeDecisionRecord(repo, { markdown: MARKDOWN('Format dates with date-fns'), deliberationId: 'd-1', supersedes: ['ADR-0035'] });
    expect(written.superseded).toEqual([]);
    expect(written.notes).toEqual([expect.stringMatching(/^ADR-0035 \(0035-format-dates-with-moment-js\.md\) was left as it is: its status reads "Deprecated"/)]);
    expect(await read('docs/adr/0035-format-dates-with-moment-js.md')).toBe(deprecated);
    // The new record still says what it supersedes: the deliberation reversed it.
    expect(await read(written.file)).toContain('Supersedes [ADR-0035: Format dates with Moment.js](0035-format-dates-with-moment-js.md).');
  });

  it('refuses a record to supersede that the folder lacks, before writing anything', async () => {
    await withFixture();
    await expect(writeDecisionRecord(repo, { markdown: MARKDOWN('X'), deliberationId: 'd-2', supersedes: ['0099'] })).rejects.toThrow('no record 0099 in docs/adr (it holds 0001 to 0035)');
    await expect(writeDecisionRecord(repo, { markdown: MARKDOWN('X'), deliberationId: 'd-2', supersedes: ['../0007'] })).rejects.toThrow('"../0007" is not a record number: give it as 7, 0007 or ADR-0007');
    expect(await readdir(join(repo, 'docs/adr'))).toHaveLength(37);
  });

  it('a repository without a folder: an error that says where parley looked; a folder the user names once is made and remembered in .adr-dir', async () => {
    await expect(writeDecisionRecord(repo, { markdown: MARKDOWN('Use NATS'), deliberationId: 'd-3' })).rejects.toThrow(`no decision folder in ${repo} (looked for .adr-dir, docs/adr, docs/decisions, doc/adr, adr): name one with decisionRecord.folder`);
    const first = await writeDecisionRecord(repo, { markdown: MARKDOWN('Use NATS'), deliberationId: 'd-3', folder: 'architecture/decisions/' });
    expect(first).toEqual({ file: 'architecture/decisions/0001-use-nats.md', number: '0001', written: true, superseded: [], notes: ['.adr-dir written: later deliberations find architecture/decisions'] });
    expect(await read('.adr-dir')).toBe('architecture/decisions\n');
    const second = await writeDecisionRecord(repo, { markdown: MARKDOWN('Use JetStream', 'd-4'), deliberationId: 'd-4', supersedes: ['1'] });
    expect(second).toEqual({ file: 'architecture/decisions/0002-use-jetstream.md', number: '0002', written: true, superseded: ['0001'], notes: [] });
    expect(await read('architecture/decisions/0001-use-nats.md')).toContain('status: superseded by ADR-0002');
  });

  it('a conventional folder is used as it is: naming it writes no .adr-dir', async () => {
    await mkdir(join(repo, 'docs', 'decisions'), { recursive: true });
    const written = await writeDecisionRecord(repo, { markdown: MARKDOWN('Use NATS'), deliberationId: 'd-5', folder: 'docs/decisions' });
    expect(written.notes).toEqual([]);
    await expect(stat(join(repo, '.adr-dir'))).rejects.toThrow();
  });

  it('refuses a folder outside the repository, by path, by symlink or through .adr-dir, and reads no symlinked record', async () => {
    const outside = join(scratch, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, '0001-secret.md'), '# Secret\n\n* Status: accepted\n');
    for (const folder of ['../outside', outside, 'docs/../../outside']) {
      await expect(writeDecisionRecord(repo, { markdown: MARKDOWN('X'), deliberationId: 'd-6', folder }), folder).rejects.toThrow(/is outside the repository/);
    }
    await mkdir(join(repo, 'docs'));
    await symlink(outside, join(repo, 'docs', 'adr'));
    await expect(openDecisionFolder(repo)).rejects.toThrow(/"docs\/adr" is outside the repository/);
    await expect(writeDecisionRecord(repo, { markdown: MARKDOWN('X'), deliberationId: 'd-6', folder: 'docs/adr/sub' })).rejects.toThrow(/is outside the repository/);
    await writeFile(join(repo, '.adr-dir'), '../outside\n');
    await expect(openDecisionFolder(repo)).rejects.toThrow(/"\.\.\/outside" is outside the repository/);
    await rm(join(repo, '.adr-dir'));
    await rm(join(repo, 'docs', 'adr'));
    await mkdir(join(repo, 'docs', 'adr'));
    await symlink(join(outside, '0001-secret.md'), join(repo, 'docs', 'adr', '0001-secret.md'));
    expect((await openDecisionFolder(repo))?.records).toEqual([]);
    expect(await readdir(outside)).toEqual(['0001-secret.md']);
  });
});
