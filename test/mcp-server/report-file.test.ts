import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

// The full report as a file beside the state, through the real MCP client and the real store in a
// temp folder: written at synthesis, rewritten by every later change, never left stale.
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const REPLY = '1. Redis persists sessions across restarts. EVIDENCE: redis.conf:300 "save 3600 1"\n2. Memcached is simpler to run on one small VM. INFERENCE';
const agree = (id: string) => ({ id, verdict: 'AGREE', claimType: 'value', reason: 'a value judgment the constraints support' });

async function synthesized(before?: (dir: string, id: string) => Promise<void>) {
  harness = await startHarness();
  await harness.client.listTools();
  const h = harness;
  const id: string = (await h.ok('delib_start', { question: 'Redis or Memcached for the session cache?', mode: 'minimal', consult: false })).deliberationId;
  const dir = join(h.home, 'deliberations');
  await before?.(dir, id);
  await h.ok('delib_consult', { deliberationId: id, reply: REPLY });
  const ended = await h.ok('delib_judge', { deliberationId: id, points: [agree('P1.1'), agree('P1.2')], phase: { trivial: true }, synthesis: { recommendation: 'Redis.', confidence: 'medium' }, consult: false });
  return { h, id, dir, ended, path: join(dir, `${id}.report.md`) };
}

describe('the report file beside the state', () => {
  it('is written at synthesis, private, and rewritten by a later judgment that changes the report', async () => {
    const { h, id, ended, path } = await synthesized();
    expect(ended.brief.record).toContain(`(ids, versions, evidence): ${path};`);
    const first = await readFile(path, 'utf8');
    expect(first).toMatch(/^# Deliberation report\n[\s\S]*## AGREED \(2\)/);
    expect((await stat(path)).mode & 0o077).toBe(0);

    const later = await h.ok('delib_judge', { deliberationId: id, ledger: [{ action: 'add', tag: 'verified', text: 'Sessions last 8 hours', reference: 'config/session.ts:12 "maxAge: 8h"' }], consult: false });
    expect(later.effects).toContain('report rebuilt');
    const rewritten = await readFile(path, 'utf8');
    expect(first).not.toContain('Sessions last 8 hours');
    expect(rewritten).toMatch(/## LEDGER[\s\S]*\| F1 \| Sessions last 8 hours \| verified \|/);
    const [resource] = (await h.client.readResource({ uri: `parley://deliberations/${id}/report.md` })).contents;
    expect((resource as { text: string }).text).toBe(rewritten);
  });

  it('when it cannot be written, the move still applies, the result says so, and no stale file is named', async () => {
    // A folder where the file would go: the rename over it fails.
    const { h, id, ended, dir } = await synthesized(async (folder, id) => {
      await mkdir(join(folder, `${id}.report.md`), { recursive: true });
      await writeFile(join(folder, `${id}.report.md`, 'keep'), 'x');
    });
    expect(ended.at).toBe('n=1 CONSTRUCTIVE terminated');
    expect(ended.effects.join('\n')).toMatch(new RegExp(`the report file ${join(dir, id)}\\.report\\.md could not be written .*; read the resource parley://deliberations/${id}/report\\.md`));
    expect(ended.brief.record).toMatch(new RegExp(`\\(ids, versions, evidence\\): parley://deliberations/${id}/report\\.md; decision record`));
    expect((await h.ok('delib_status', { deliberationId: id })).brief.record).not.toContain(dir);
  });
});
