import { afterEach, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startHarness, type Harness } from './harness.js';

// Whole deliberations driven only through the MCP tools (real SDK Client, in-memory transport), with
// the consultee's replies entering through reply_record. The SDK client checks every structured
// result against the tool's outputSchema once it has listed the tools, so a bad result would throw.
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function started(mode: 'standard' | 'minimal' | 'quick') {
  harness = await startHarness();
  await harness.client.listTools();
  const start = await harness.ok('delib_start', { question: 'Redis or Memcached for the session cache?', mode, framing: 'compare', constraints: ['Budget: one small VM'] });
  return { h: harness, id: start.deliberationId as string, start };
}

const REPLY_1 = '1. Redis persists sessions across restarts. EVIDENCE: redis.conf:300 "save 3600 1"\n2. Memcached is simpler to run on one small VM. INFERENCE';

describe('argumentation through the MCP tools alone', () => {
  it('runs a standard deliberation from start to the synthesized report, refusing illegal moves on the way', async () => {
    const { h, id, start } = await started('standard');
    expect(start.status).toMatchObject({ mode: 'standard', n: 1, phase: 'CONSTRUCTIVE' });
    expect(start.next.join('\n')).toMatch(/delib_consult[\s\S]*reply_record/);

    // A move out of turn is refused with the rule and what to do instead.
    expect(await h.refused('point_evaluate', { deliberationId: id, pointId: 'P1.1', classification: 'AGREE' })).toMatch(/^\[[a-z-]+\] .*Legal next moves: .*reply_record/);

    const recorded = await h.ok('reply_record', { deliberationId: id, text: REPLY_1, sessionId: 'codex-session-1' });
    expect(recorded.effects.join('\n')).toMatch(/2 new/);
    expect(recorded.status.pendingTriage ?? recorded.next.join('\n')).toMatch(/P1\.1[\s\S]*P1\.2/);
    await h.ok('point_triage', { deliberationId: id, pointId: 'P1.1', triage: 'in-scope', reason: 'it answers the question asked' });
    await h.ok('point_triage', { deliberationId: id, pointId: 'P1.2', triage: 'in-scope', reason: 'it answers the question asked' });

    // The evidence gate: an empirical AGREE needs execution or textual evidence.
    const gate = await h.refused('point_evaluate', { deliberationId: id, pointId: 'P1.1', classification: 'AGREE', claimType: 'empirical', reason: 'it sounds right to me' });
    expect(gate).toMatch(/evidence-gate/);
    const challenged = await h.ok('point_evaluate', { deliberationId: id, pointId: 'P1.1', classification: 'SKEPTICAL', flaw: 'Sessions expire within the hour, so persistence buys little.' });
    expect(challenged.effects.join('\n')).toMatch(/C1 opened/);
    await h.ok('point_evaluate', { deliberationId: id, pointId: 'P1.2', classification: 'AGREE', claimType: 'value', reason: 'one small VM favours the simpler daemon' });
    const advanced = await h.ok('iteration_advance', { deliberationId: id });
    expect(advanced.status).toMatchObject({ n: 2 });

    await h.ok('reply_record', { deliberationId: id, text: 'Re C1: a restart logs every user out; the sessions last 8 hours. EVIDENCE: config/session.ts:12 "maxAge: 8h"' });
    const defended = await h.ok('delib_status', { deliberationId: id });
    expect(defended.next.join('\n')).toMatch(/challenge_resolve/);
    await h.ok('challenge_resolve', {
      deliberationId: id,
      challengeId: 'C1',
      verdict: 'accepted',
      claimType: 'empirical',
      evidenceType: 'textual',
      evidence: 'config/session.ts:12 "maxAge: 8h"',
      reason: 'eight-hour sessions make a restart costly for users',
    });
    let status = await h.ok('iteration_advance', { deliberationId: id });
    for (let guard = 0; status.status.status !== 'terminated' && guard < 8; guard++) {
      await h.ok('reply_record', { deliberationId: id, text: 'Re C1: nothing to add. No new points. INFERENCE' });
      status = await h.ok('iteration_advance', { deliberationId: id });
    }
    expect(status.status.status).toBe('terminated');

    const synthesized = await h.ok('delib_synthesize', { deliberationId: id });
    expect(synthesized.report.markdown).toMatch(/AGREED[\s\S]*DISMISSED[\s\S]*UNRESOLVED[\s\S]*SURFACED QUESTIONS[\s\S]*NOT EVALUATED/);
    expect(synthesized.report.markdown).toMatch(/\*\*P1\.1\*\* Redis persists/);
    expect(synthesized.report.json.agreed.map((item: { ref: string }) => item.ref).sort()).toEqual(['P1.1', 'P1.2']);

    // On disk: the state file, and an audit line for every move including the refusals.
    const dir = join(h.home, 'deliberations');
    const envelope = JSON.parse(await readFile(join(dir, `${id}.json`), 'utf8'));
    expect(envelope.value).toMatchObject({ id, status: 'terminated', consulteeSessionId: 'codex-session-1' });
    const audit = (await readFile(join(dir, `${id}.audit.jsonl`), 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    expect(audit.filter((r) => r.result?.ok === false).map((r) => r.result.refusal.rule)).toEqual(expect.arrayContaining(['evidence-gate']));
    expect(audit.map((r) => r.move)).toEqual(expect.arrayContaining(['delib_start', 'reply_record', 'point_triage', 'point_evaluate', 'challenge_resolve', 'iteration_advance', 'delib_synthesize']));
    const { deliberations } = await h.ok('delib_status', {});
    expect(deliberations.map((d: { id: string }) => d.id)).toEqual([id]);
  });

  it('minimal mode keeps phases and challenges but refuses the stress test', async () => {
    const { h, id, start } = await started('minimal');
    expect(start.status).toMatchObject({ mode: 'minimal', phase: 'CONSTRUCTIVE' });
    await h.ok('reply_record', { deliberationId: id, text: REPLY_1 });
    expect(await h.refused('stress_test_record', { deliberationId: id, objection: 'It will not scale.', severity: 'mitigable', response: 'Shard later.' })).toMatch(/minimal mode has no/);
    await h.ok('point_triage', { deliberationId: id, pointId: 'P1.1', triage: 'out-of-scope', reason: 'restarts are not what the user asked about' });
    const status = await h.ok('delib_status', { deliberationId: id });
    expect(status.status).toMatchObject({ mode: 'minimal' });
    expect(await readdir(join(h.home, 'deliberations'))).toContain(`${id}.json`);
  });

  it('quick mode runs in memory: at most two iterations, buckets and the evidence gate, nothing on disk', async () => {
    const { h, id, start } = await started('quick');
    expect(start.status).toMatchObject({ mode: 'quick', phase: null });
    await h.ok('reply_record', { deliberationId: id, text: REPLY_1 });
    expect(await h.refused('ledger_update', { deliberationId: id, action: 'add', text: 'x', tag: 'user' })).toMatch(/quick/i);
    await h.ok('point_triage', { deliberationId: id, pointId: 'P1.1', triage: 'in-scope', reason: 'it answers the question asked' });
    await h.ok('point_triage', { deliberationId: id, pointId: 'P1.2', triage: 'in-scope', reason: 'it answers the question asked' });
    expect(await h.refused('point_evaluate', { deliberationId: id, pointId: 'P1.1', classification: 'AGREE', claimType: 'empirical', reason: 'the consultee says so and it seems plausible' })).toMatch(/evidence-gate/);
    await h.ok('point_evaluate', { deliberationId: id, pointId: 'P1.1', classification: 'AGREE', claimType: 'empirical', evidenceType: 'textual', evidence: 'redis.conf:300 "save 3600 1"', reason: 'the config shows snapshots on' });
    await h.ok('point_evaluate', { deliberationId: id, pointId: 'P1.2', classification: 'AGREE', claimType: 'value', reason: 'one small VM favours the simpler daemon' });
    let status = await h.ok('iteration_advance', { deliberationId: id });
    if (status.status.status !== 'terminated') {
      await h.ok('reply_record', { deliberationId: id, text: '1. Both could run behind a proxy. INFERENCE' });
      await h.ok('point_triage', { deliberationId: id, pointId: 'P2.1', triage: 'out-of-scope', reason: 'proxies are not part of the choice asked about' });
      status = await h.ok('iteration_advance', { deliberationId: id });
    }
    expect(status.status).toMatchObject({ status: 'terminated' });
    expect(status.status.n).toBeLessThanOrEqual(2);
    const synthesized = await h.ok('delib_synthesize', { deliberationId: id });
    expect(synthesized.report.json.agreed).toHaveLength(2);
    expect(await readdir(h.home)).toEqual([]);
  });

  it('bad arguments and unknown ids come back as tool errors with a sentence to act on', async () => {
    harness = await startHarness();
    expect(await harness.refused('delib_start', { question: '' })).toMatch(/Invalid arguments for tool delib_start/);
    expect(await harness.refused('delib_start', { question: 'q', mode: 'turbo' })).toMatch(/mode/);
    expect(await harness.refused('delib_status', { deliberationId: 'nope' })).toMatch(/no deliberation "nope".*delib_start/);
    expect(await harness.refused('delib_status', { deliberationId: '../../etc/passwd' })).toMatch(/invalid/);
    expect(await harness.refused('ledger_update', { deliberationId: 'nope', action: 'add', text: 't', tag: 'user' })).toMatch(/no deliberation "nope"/);
  });
});
