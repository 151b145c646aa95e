import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDecisionRecord } from '../../protocols/decisions/index.js';
import { FIXTURE_FOLDER } from '../protocols/decisions/fixture.js';
import { fakeCodex, startHarness, type Harness } from './harness.js';

// The repository's decision records through the MCP tools and resources alone (real SDK client,
// in-memory transport): delib_start finds the related ones, a deliberation that reverses 0007 ends
// with its record 0012 in the folder and both records linked, and the resources list, show and search.
let harness: Harness | undefined;
let repo: string;
beforeEach(async () => {
  repo = await mkdtemp(join(tmpdir(), 'parley-repo-'));
  await mkdir(join(repo, '.git'));
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await rm(repo, { recursive: true, force: true });
});

/** The team's folder in 2022: records 0001 to 0011, all standing then (0004, 0005 and 0007 were superseded later). */
async function folderOf2022(): Promise<string> {
  const dir = join(repo, 'docs', 'adr');
  await mkdir(dir, { recursive: true });
  for (const file of await readdir(FIXTURE_FOLDER)) {
    const n = Number(/^(\d+)-/.exec(file)?.[1]);
    if (n < 1 || n > 11) continue;
    const text = await readFile(join(FIXTURE_FOLDER, file), 'utf8');
    await writeFile(join(dir, file), text.replace(/^\* Status: superseded by .*$/m, '* Status: accepted').replace(/^Superseded by .*$/m, 'Accepted'));
  }
  return dir;
}

const QUESTION = 'Should user sessions stay in Redis, or move to signed cookies now that logins go through OpenID Connect?';
const REPLY = '1. Move sessions to signed, encrypted cookies: a session holds only the user id, the tenant and the token expiry. EVIDENCE: docs/adr/0006-authenticate-users-with-openid-connect-through-keycloak.md:8 "one login for the web app"';

async function started() {
  harness = await startHarness({ cwd: repo });
  await harness.client.listTools();
  return harness.ok('delib_start', { question: QUESTION, mode: 'quick', consult: false });
}

describe('decision records through MCP', () => {
  it('delib_start returns the related records with number, title, date and status, and gives Codex none of them', async () => {
    await folderOf2022();
    const codex = fakeCodex(() => REPLY);
    harness = await startHarness({ cwd: repo, runCodex: codex.run });
    await harness.client.listTools();
    const start = await harness.ok('delib_start', { question: QUESTION, mode: 'quick' });
    expect(start.consult.status).toBe('done');
    expect(start.related).toEqual([
      { number: '0006', title: 'Authenticate users with OpenID Connect through Keycloak', date: '2021-07-01', status: 'accepted', file: 'docs/adr/0006-authenticate-users-with-openid-connect-through-keycloak.md' },
      { number: '0007', title: 'Keep user sessions in Redis', date: '2021-08-12', status: 'accepted', file: 'docs/adr/0007-keep-user-sessions-in-redis.md' },
    ]);
    // Codex was asked the question alone: which record to quote, if any, is the orchestrator's call.
    expect(codex.calls).toHaveLength(1);
    expect(codex.calls[0]?.prompt).not.toMatch(/Keep user sessions in Redis|0007|Keycloak/);
  });

  it('as SKILL.md says: started without a consult, a related record the orchestrator judges relevant reaches Codex as a verified ledger fact, quoted', async () => {
    await folderOf2022();
    const codex = fakeCodex(() => REPLY);
    harness = await startHarness({ cwd: repo, runCodex: codex.run });
    const start = await harness.ok('delib_start', { question: QUESTION, consult: false });
    const record = start.related.find((r: { number: string }) => r.number === '0007');
    const fact = `${record.file} (accepted ${record.date}) chose Redis for sessions: reads on every request answered in under a millisecond`;
    const judged = await harness.ok('delib_judge', { deliberationId: start.deliberationId, ledger: [{ action: 'add', text: fact, tag: 'verified', reference: `${record.file}:22 "Chosen option: Redis"` }], consult: false });
    expect(judged.refused).toBeUndefined();
    await harness.ok('delib_consult', { deliberationId: start.deliberationId });
    expect(codex.calls).toHaveLength(1);
    expect(codex.calls[0]?.prompt).toContain(fact);
  });

  it('adds nothing when nothing is related or the repository keeps no records, and says why a folder it cannot read was not searched', async () => {
    await folderOf2022();
    harness = await startHarness({ cwd: repo });
    const unrelated = await harness.ok('delib_start', { question: 'Which restaurant should host the summer party?', mode: 'quick', consult: false });
    expect(Object.keys(unrelated).sort()).toEqual(['at', 'deliberationId', 'effects', 'next']);
    await writeFile(join(repo, '.adr-dir'), '../elsewhere\n');
    const unreadable = await harness.ok('delib_start', { question: QUESTION, mode: 'quick', consult: false });
    expect(unreadable.decisionsNotSearched).toMatch(/the decision folder "\.\.\/elsewhere" is outside the repository/);
    await rm(join(repo, '.adr-dir'));
    await rm(join(repo, 'docs'), { recursive: true });
    const none = await harness.ok('delib_start', { question: QUESTION, mode: 'quick', consult: false });
    expect(Object.keys(none).sort()).toEqual(['at', 'deliberationId', 'effects', 'next']);
  });

  it('a deliberation that reverses 0007 ends with its record 0012 in the folder and both records linked', async () => {
    const dir = await folderOf2022();
    const start = await started();
    const id = start.deliberationId as string;
    await harness!.ok('delib_consult', { deliberationId: id, reply: REPLY });
    const ended = await harness!.ok('delib_judge', {
      deliberationId: id,
      points: [{ id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'a small session needs no store, and Redis outages logged everyone out' }],
      phase: { advance: true },
      synthesis: { recommendation: 'Move sessions to signed, encrypted cookies. Redis is no longer needed for them.', confidence: 'medium' },
      consult: false,
    });
    expect(ended.at).toBe('n=1 terminated');

    const recorded = await harness!.ok('delib_synthesize', { deliberationId: id, decisionRecord: { supersedes: ['0007'] } });
    expect(recorded.decisionRecord).toEqual({ file: 'docs/adr/0012-move-sessions-to-signed-encrypted-cookies.md', number: '0012', superseded: ['0007'] });
    expect(recorded.effects).toEqual([`decision record ${recorded.decisionRecord.file} written`, 'ADR-0007 marked superseded by ADR-0012']);
    // The closing judgment returned the brief: asked only for the record, delib_synthesize does not repeat it.
    expect(ended.brief.decision).toMatch(/^Move sessions to signed, encrypted cookies/);
    expect(recorded.brief).toBeUndefined();

    const newText = await readFile(join(repo, recorded.decisionRecord.file), 'utf8');
    const oldText = await readFile(join(dir, '0007-keep-user-sessions-in-redis.md'), 'utf8');
    expect(parseDecisionRecord('0012-x.md', newText)).toMatchObject({ supersedes: ['0007'], status: 'accepted', deliberation: id });
    expect(newText).toContain('Supersedes [ADR-0007: Keep user sessions in Redis](0007-keep-user-sessions-in-redis.md).');
    expect(oldText).toContain('* Status: superseded by [ADR-0012](0012-move-sessions-to-signed-encrypted-cookies.md)');
    expect(parseDecisionRecord('0007-keep-user-sessions-in-redis.md', oldText)?.supersededBy).toBe('0012');

    // Asked again, it writes nothing: the record is the team's now.
    const again = await harness!.ok('delib_synthesize', { deliberationId: id, decisionRecord: { supersedes: ['0007'] } });
    expect(again.decisionRecord).toEqual({ file: recorded.decisionRecord.file, number: '0012' });
    expect(again.effects).toEqual([`deliberation ${id} is already recorded as ${recorded.decisionRecord.file}: nothing written (edit that file to change it)`]);
    expect((await readdir(dir)).filter((f) => f.startsWith('0013'))).toEqual([]);

    // The search now shows which one stands.
    const [search] = (await harness!.client.readResource({ uri: `parley://decisions/search?q=${encodeURIComponent('Where should user sessions live?')}` })).contents;
    expect((search as { text: string }).text).toBe(
      '0007  Keep user sessions in Redis  (2021-08-12, superseded by 0012)\n' +
        `0012  Move sessions to signed, encrypted cookies  (${new Date().toISOString().slice(0, 10)}, accepted, supersedes 0007)\n`,
    );
  });

  it('refuses a record to supersede that is not in the folder, and writes nothing', async () => {
    const dir = await folderOf2022();
    const files = await readdir(dir);
    harness = await startHarness({ cwd: repo });
    const id = (await harness.ok('delib_start', { question: QUESTION, mode: 'quick', consult: false })).deliberationId;
    await harness.ok('delib_consult', { deliberationId: id, reply: REPLY });
    await harness.ok('delib_judge', { deliberationId: id, points: [{ id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'a small session needs no store' }], phase: { advance: true }, synthesis: { recommendation: 'Cookies.', confidence: 'low' }, consult: false });
    expect(await harness.refused('delib_synthesize', { deliberationId: id, decisionRecord: { supersedes: ['0031'] } })).toBe('no record 0031 in docs/adr (it holds 0001 to 0011)');
    expect(await readdir(dir)).toEqual(files);
  });

  it('lists, shows and searches the records as resources', async () => {
    await folderOf2022();
    harness = await startHarness({ cwd: repo });
    const read = async (uri: string) => ((await harness!.client.readResource({ uri })).contents[0] as { text: string }).text;
    const list = await read('parley://decisions');
    expect(list.split('\n')[0]).toBe('0001  Record architecture decisions  (2021-03-04, accepted)');
    expect(list).toContain('\n11 records in docs/adr, 11 standing.\n');
    expect(await read('parley://decisions/7')).toBe(await readFile(join(repo, 'docs/adr/0007-keep-user-sessions-in-redis.md'), 'utf8'));
    expect(await read('parley://decisions/search?q=kitchen%20paint%20colour')).toBe('No decision record in docs/adr is related to "kitchen paint colour" (11 searched).\n');
    const listed = (await harness.client.listResources()).resources.map((r) => r.uri);
    expect(listed).toEqual(expect.arrayContaining(['parley://decisions', 'parley://decisions/0001', 'parley://decisions/0011']));
    await expect(harness.client.readResource({ uri: 'parley://decisions/0099' })).rejects.toThrow(/no record 0099 in docs\/adr/);
  });
});
