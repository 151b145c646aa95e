import { afterEach, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BackendError } from '../../wrapper/backend.js';
import { fakeCodex, startHarness, type FakeCodex, type Harness } from './harness.js';

// Whole deliberations driven only through the MCP tools (real SDK Client, in-memory transport). The
// consultee's replies enter either as replies the orchestrator obtained itself (delib_consult
// `reply`) or from a stand-in for the Codex wrapper (the stdio tests in test/mcp-server/consult run the real
// codex). The SDK client checks every structured result against the tool's outputSchema once it
// has listed the tools, so a bad result would throw.
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const LEAN_KEYS = ['deliberationId', 'at', 'effects', 'refused', 'next', 'consult', 'brief', 'arbitration'];

/** A move's result is lean: what changed and what next, never the whole state. */
function expectLean(result: Record<string, unknown>): void {
  expect(Object.keys(result).filter((key) => !LEAN_KEYS.includes(key))).toEqual([]);
}

async function started(mode: 'standard' | 'minimal' | 'quick') {
  harness = await startHarness();
  await harness.client.listTools();
  const start = await harness.ok('delib_start', { question: 'Redis or Memcached for the session cache?', mode, framing: 'compare', constraints: ['Budget: one small VM'], consult: false });
  return { h: harness, id: start.deliberationId as string, start };
}

/** A server whose consults reach `codex` instead of the codex binary. */
async function withCodex(codex: FakeCodex, mode: 'standard' | 'minimal' = 'standard') {
  harness = await startHarness({ runCodex: codex.run });
  await harness.client.listTools();
  const start = await harness.ok('delib_start', { question: 'Redis or Memcached for the session cache?', mode, constraints: ['Budget: one small VM'] });
  return { h: harness, id: start.deliberationId as string, start };
}

const REPLY_1 = '1. Redis persists sessions across restarts. EVIDENCE: redis.conf:300 "save 3600 1"\n2. Memcached is simpler to run on one small VM. INFERENCE';
const DEFENSE = 'Re C1: a restart logs every user out; the sessions last 8 hours. EVIDENCE: config/session.ts:12 "maxAge: 8h"';
const RECOMMENDATION = { recommendation: 'Redis, with snapshots on', confidence: 'medium', caveats: ['One VM: no failover either way'] };

describe('argumentation through the MCP tools alone', () => {
  it('runs a standard deliberation from start to the report, one judgment per iteration, refusing illegal moves on the way', async () => {
    const { h, id, start } = await started('standard');
    expectLean(start);
    expect(start).toMatchObject({ at: 'n=1 CONSTRUCTIVE active', next: [expect.stringMatching(/^delib_consult: /)] });

    // Out of turn: the advance needs a reply, synthesis needs termination.
    const early = await h.ok('delib_judge', { deliberationId: id, phase: { advance: true }, consult: false });
    expect(early.refused).toEqual([expect.objectContaining({ item: 'phase', rule: 'valid-reply-required', legal: ['delib_consult'] })]);
    expect(await h.refused('delib_synthesize', { deliberationId: id, ...RECOMMENDATION })).toMatch(/^\[not-terminated\] .*Legal next moves: delib_consult/);

    const recorded = await h.ok('delib_consult', { deliberationId: id, reply: REPLY_1 });
    expectLean(recorded);
    // The reply is shown: the effects do not say again that it was recorded or how many points it brought.
    expect(recorded.effects).not.toContain('2 new point(s) to judge');
    expect(recorded.consult).toEqual({
      status: 'done',
      reply: {
        iteration: 1,
        points: [
          { id: 'P1.1', text: 'Redis persists sessions across restarts. EVIDENCE: redis.conf:300 "save 3600 1"' },
          { id: 'P1.2', text: 'Memcached is simpler to run on one small VM. INFERENCE' },
        ],
      },
    });
    expect(recorded.next.join('\n')).toMatch(/delib_judge: verdicts for P1\.1, P1\.2/);

    // The evidence gate: an empirical AGREE needs execution or textual evidence. The rest applies; the advance waits.
    const gate = await h.ok('delib_judge', {
      deliberationId: id,
      points: [
        { id: 'P1.1', verdict: 'AGREE', claimType: 'empirical', reason: 'it sounds right to me' },
        { id: 'P1.2', verdict: 'AGREE', claimType: 'value', reason: 'one small VM favours the simpler daemon' },
      ],
      phase: { advance: true },
      consult: false,
    });
    expect(gate.refused).toEqual([expect.objectContaining({ item: 'points[0]', ref: 'P1.1', rule: 'evidence-gate', legal: expect.arrayContaining(['verdict']) })]);
    expect(gate.effects).toContain('P1.2 -> Agreed');
    expect(gate.effects.join('\n')).toMatch(/no advance: 1 item\(s\) refused/);
    expect(gate.at).toBe('n=1 CONSTRUCTIVE active');

    const challenged = await h.ok('delib_judge', {
      deliberationId: id,
      points: [{ id: 'P1.1', verdict: 'SKEPTICAL', flaw: 'Sessions expire within the hour, so persistence buys little.' }],
      phase: { advance: true },
      consult: false,
    });
    expect(challenged.refused).toBeUndefined();
    expect(challenged.effects).toContain('C1 opened (SKEPTICAL) on P1.1');
    expect(challenged).toMatchObject({ at: 'n=2 CONSTRUCTIVE active', next: [expect.stringMatching(/^delib_consult: ask Codex for iteration 2/)] });
    expect(challenged.consult).toBeUndefined();

    const defended = await h.ok('delib_consult', { deliberationId: id, reply: DEFENSE });
    expect(defended.consult.reply.answers).toEqual([{ challenge: 'C1', point: 'P1.1', text: DEFENSE }]);
    expect(defended.next.join('\n')).toMatch(/delib_judge: judge C1 \(accepted\|rejected\|rebutted\)/);
    const accepted = await h.ok('delib_judge', {
      deliberationId: id,
      challenges: [{ id: 'C1', verdict: 'accepted', claimType: 'empirical', evidenceType: 'textual', evidence: 'config/session.ts:12 "maxAge: 8h"', reason: 'eight-hour sessions make a restart costly for users' }],
      phase: { advance: true },
      consult: false,
    });
    expect(accepted.at).toBe('n=3 DEVELOPMENT active');

    // "No further points." is a valid reply; the judgment that ends the deliberation carries the synthesis.
    const quiet = await h.ok('delib_consult', { deliberationId: id, reply: 'No further points.' });
    expect(quiet.consult.reply).toEqual({ iteration: 3, nothingFurther: true, points: [] });
    const ended = await h.ok('delib_judge', { deliberationId: id, phase: { advance: true }, synthesis: RECOMMENDATION, consult: false });
    expectLean(ended);
    expect(ended.at).toBe('n=3 DEVELOPMENT terminated');
    expect(ended.effects.join('\n')).toMatch(/converged[\s\S]*report ready: 2 agreed, 0 dismissed/);
    // The closing result is the brief for the orchestrator's answer; the full record is a file beside the state.
    const dir = join(h.home, 'deliberations');
    const file = join(dir, `${id}.report.md`);
    expect(ended.brief).toEqual({
      decision: 'Redis, with snapshots on',
      confidence: 'medium',
      caveats: ['One VM: no failover either way'],
      turnsOn: [
        'Redis persists sessions across restarts. redis.conf:300 "save 3600 1" — the orchestrator read it in: config/session.ts:12 "maxAge: 8h". It held up against an objection.',
        "Memcached is simpler to run on one small VM. — a value judgment: one small VM favours the simpler daemon",
      ],
      record: `standard mode, 3 iterations, ended by convergence; the full record (ids, versions, evidence): ${file}; decision record: parley://deliberations/${id}/decision.md`,
    });
    expect(await readFile(file, 'utf8')).toMatch(/## AGREED \(2\)\n\n- \*\*P1\.1\*\* Redis persists sessions across restarts/);

    // A finished deliberation's status gives the same brief (the result may be lost), not the whole state.
    const status = await h.ok('delib_status', { deliberationId: id });
    expect(status).toMatchObject({ mode: 'standard', n: 3, status: 'terminated', termination: { reason: 'convergence' }, brief: ended.brief });
    expect(status.buckets).toBeUndefined();

    // On disk: the state file, and an audit line for every move, with the refused items.
    const envelope = JSON.parse(await readFile(join(dir, `${id}.json`), 'utf8'));
    expect(envelope.value).toMatchObject({ id, status: 'terminated', recommendation: { text: 'Redis, with snapshots on', confidence: 'medium' } });
    const audit = (await readFile(join(dir, `${id}.audit.jsonl`), 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    expect(audit.flatMap((r) => r.result?.refused ?? []).map((x: { rule: string }) => x.rule)).toEqual(['valid-reply-required', 'evidence-gate']);
    expect(audit.find((r) => r.result?.ok === false)).toMatchObject({ move: 'synthesize', result: { refusal: { rule: 'not-terminated' } } });
    expect(new Set(audit.map((r) => r.move))).toEqual(new Set(['delib_start', 'reply_record', 'judge', 'synthesize']));
    const { deliberations } = await h.ok('delib_status', {});
    expect(deliberations.map((d: { id: string }) => d.id)).toEqual([id]);
  });

  it('a judgment with refused items applies the rest, does not advance, and lists each refusal with its rule and legal actions', async () => {
    const codex = fakeCodex((prompt) =>
      prompt.includes('Iteration 1/8')
        ? '1. INFERENCE: Redis keeps sessions across a restart.\n2. GUESS: Memcached is faster.\n3. INFERENCE: Either fits one small VM.'
        : 'Re C1: INFERENCE: a restart logs every user out.\n\n1. EVIDENCE: extends P1.3: both run in 64 MB (README.md:12 "64 MB").',
    );
    const { h, id, start } = await withCodex(codex);
    expect(start.consult.reply.points.map((p: { id: string }) => p.id)).toEqual(['P1.1', 'P1.2', 'P1.3']);

    const partly = await h.ok('delib_judge', {
      deliberationId: id,
      points: [
        { id: 'P1.1', verdict: 'SKEPTICAL', flaw: 'A restart is rare enough that losing sessions may not matter.' },
        { id: 'P1.2', verdict: 'AGREE', claimType: 'empirical', reason: 'benchmarks say so in general' },
        { id: 'P1.3', verdict: 'REJECT', flaw: 'The claim compares no numbers.' },
      ],
      challenges: [{ id: 'C9', verdict: 'accepted', claimType: 'value', reason: 'no such challenge exists here' }],
      phase: { advance: true },
    });
    expect(partly.refused).toEqual([
      { item: 'points[1]', ref: 'P1.2', rule: 'evidence-gate', message: expect.stringMatching(/execution or textual/), legal: expect.arrayContaining(['verdict']) },
      { item: 'points[2]', ref: 'P1.3', rule: 'articulation', message: expect.stringMatching(/REJECT needs/), legal: expect.arrayContaining(['verdict']) },
      { item: 'challenges[0]', ref: 'C9', rule: 'unknown-challenge', message: expect.any(String), legal: [], whyNone: 'there is no challenge C9 (the challenges are C1)' },
    ]);
    expect(partly.effects).toContain('C1 opened (SKEPTICAL) on P1.1');
    expect(partly.effects.join('\n')).toMatch(/no advance: 3 item\(s\) refused/);
    expect(partly.at).toBe('n=1 CONSTRUCTIVE active');
    expect(partly.consult).toBeUndefined();
    expect(codex.calls).toHaveLength(1);
    expect(partly.next.join('\n')).toMatch(/delib_judge: verdicts for P1\.2, P1\.3/);

    // Nothing refused: the same call advances, asks Codex and returns its reply as read.
    const next = await h.ok('delib_judge', {
      deliberationId: id,
      points: [
        { id: 'P1.2', verdict: 'SKEPTICAL', flaw: 'No measurement at this load shows a speed gap.' },
        { id: 'P1.3', verdict: 'AGREE', claimType: 'value', reason: 'both fit the budget of one small VM' },
      ],
      phase: { advance: true },
    });
    expectLean(next);
    expect(next.refused).toBeUndefined();
    expect(next.at).toBe('n=2 CONSTRUCTIVE active');
    expect(next.effects).toEqual(expect.arrayContaining(['C2 opened (SKEPTICAL) on P1.2', 'C2 dropped: the next prompt carries a reminder']));
    // A defended challenge is the reply's answer and next's verdict: no effect line repeats it.
    expect(next.effects).not.toContain('C1 defended: judge it');
    expect(next.consult).toMatchObject({
      status: 'done',
      reply: {
        iteration: 2,
        points: [{ id: 'P2.1', refs: ['P1.3'], text: 'EVIDENCE: extends P1.3: both run in 64 MB (README.md:12 "64 MB").' }],
        answers: [{ challenge: 'C1', point: 'P1.1', text: 'Re C1: INFERENCE: a restart logs every user out.' }],
      },
    });
    expect(codex.calls).toHaveLength(2);
    expect(codex.calls[1]).toMatchObject({ sessionId: 'fake-session-1', sandbox: 'read-only' });
    expect(codex.calls[1]!.prompt).toMatch(/C1 \(SKEPTICAL\) on P1\.1[\s\S]*C2 \(SKEPTICAL\) on P1\.2/);
  });

  it.each(['Nothing further.', 'No further points from me.', 'I have nothing to add.'])('"%s" is a valid reply that converges, and the judgment carries the synthesis', async (quiet) => {
    const codex = fakeCodex((prompt) => (prompt.includes('Iteration 1/8') ? '1. INFERENCE: Redis keeps sessions across a restart.' : quiet));
    const { h, id } = await withCodex(codex);
    const judged = await h.ok('delib_judge', {
      deliberationId: id,
      points: [{ id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'losing every session on a restart is unacceptable here' }],
      phase: { advance: true },
    });
    expect(judged.consult.reply).toEqual({ iteration: 2, nothingFurther: true, points: [] });
    expect(judged.effects).toContain('the consultee has nothing further');
    expect(judged.effects.join('\n')).not.toMatch(/format failure/);
    expect(judged.next).toEqual([expect.stringMatching(/^delib_judge: phase\.advance: ends the deliberation \(convergence\) unless a challenge stays open: add synthesis$/)]);

    const ended = await h.ok('delib_judge', { deliberationId: id, phase: { advance: true }, synthesis: RECOMMENDATION });
    expect(ended.at).toBe('n=2 CONSTRUCTIVE terminated');
    expect(ended.effects.join('\n')).toMatch(/converged[\s\S]*report ready: 1 agreed/);
    expect(ended.brief).toMatchObject({ decision: 'Redis, with snapshots on', turnsOn: [expect.stringMatching(/^Redis /)] });
    expect(ended.consult).toBeUndefined();
    expect(codex.calls).toHaveLength(2);
    const status = await h.ok('delib_status', { deliberationId: id });
    expect(status).toMatchObject({ termination: { reason: 'convergence' }, brief: ended.brief });
  });

  it('minimal mode keeps phases and challenges but refuses the stress test', async () => {
    const { h, id, start } = await started('minimal');
    expect(start.at).toBe('n=1 CONSTRUCTIVE active');
    await h.ok('delib_consult', { deliberationId: id, reply: REPLY_1 });
    const judged = await h.ok('delib_judge', {
      deliberationId: id,
      points: [{ id: 'P1.1', triage: 'out-of-scope', reason: 'restarts are not what the user asked about' }],
      stressTest: { objection: 'It will not scale.', severity: 'mitigable', response: 'Shard later.' },
      phase: { stressTestWarranted: true },
      consult: false,
    });
    expect(judged.effects).toContain('P1.1 -> Dismissed OUT-OF-SCOPE');
    expect(judged.refused).toEqual([
      expect.objectContaining({ item: 'stressTest', rule: 'mode-minimal', message: expect.stringMatching(/minimal mode has no stress test/) }),
      expect.objectContaining({ item: 'phase.stressTestWarranted', rule: 'mode-minimal' }),
    ]);
    const status = await h.ok('delib_status', { deliberationId: id });
    expect(status).toMatchObject({ mode: 'minimal', buckets: { dismissed: ['P1.1 OUT-OF-SCOPE'] } });
    expect(status.stressTest).toBeUndefined();
    expect(await readdir(join(h.home, 'deliberations'))).toContain(`${id}.json`);
  });

  it('quick mode runs in memory: at most two iterations, buckets and the evidence gate, nothing on disk', async () => {
    const { h, id, start } = await started('quick');
    expect(start.at).toBe('n=1 active');
    await h.ok('delib_consult', { deliberationId: id, reply: REPLY_1 });
    const judged = await h.ok('delib_judge', {
      deliberationId: id,
      ledger: [{ action: 'add', text: 'Sessions last 8 hours', tag: 'user' }],
      points: [
        { id: 'P1.1', verdict: 'AGREE', claimType: 'empirical', reason: 'the consultee says so and it seems plausible' },
        { id: 'P1.2', verdict: 'AGREE', claimType: 'value', reason: 'one small VM favours the simpler daemon' },
      ],
      consult: false,
    });
    expect(judged.refused.map((r: { item: string; rule: string }) => [r.item, r.rule])).toEqual([['ledger[0]', 'quick-mode'], ['points[0]', 'evidence-gate']]);
    const ended = await h.ok('delib_judge', {
      deliberationId: id,
      points: [{ id: 'P1.1', verdict: 'AGREE', claimType: 'empirical', evidenceType: 'textual', evidence: 'redis.conf:300 "save 3600 1"', reason: 'the config shows snapshots on' }],
      phase: { advance: true },
      synthesis: RECOMMENDATION,
      consult: false,
    });
    // Nothing contested: quick mode ends at the first advance.
    expect(ended.at).toBe('n=1 terminated');
    expect(ended.brief.turnsOn).toHaveLength(2);
    expect(ended.brief.record).toMatch(new RegExp(`: parley://deliberations/${id}/report\\.md; decision record: parley://deliberations/${id}/decision\\.md$`));
    const status = await h.ok('delib_status', { deliberationId: id });
    expect(status).toMatchObject({ mode: 'quick', status: 'terminated', brief: ended.brief });
    const [report] = (await h.client.readResource({ uri: `parley://deliberations/${id}/report.md` })).contents;
    expect((report as { text: string }).text).toMatch(/## AGREED \(2\)\n\n- \*\*P1\.1\*\*[\s\S]*\n- \*\*P1\.2\*\*/);
    expect(await h.refused('delib_arbitrate', { deliberationId: id })).toMatch(/^\[mode-quick\]/);
    expect(await readdir(h.home)).toEqual([]);
  });

  it('a first consult that fails names the deliberation it keeps, never as started, and a later delib_consult resumes it', async () => {
    let fail = true;
    const codex = fakeCodex(() => '1. INFERENCE: Redis keeps sessions across a restart.');
    harness = await startHarness({
      runCodex: async (options) => {
        if (fail) throw new BackendError('not-found', 'codex was not found on PATH (ENOENT).');
        return codex.run(options);
      },
    });
    const refusal = await harness.refused('delib_start', { question: 'Redis or Memcached?' });
    const id = /deliberation (d-[\w-]+) is kept with no reply yet/.exec(refusal)?.[1];
    expect(refusal).toMatch(/^\[consult-failed\] deliberation d-[\w-]+ is kept with no reply yet: the consult failed: codex was not found on PATH \(ENOENT\)\. The state is unchanged.*Legal next moves: delib_consult/);
    expect(refusal).not.toMatch(/started|\.\./);
    fail = false;
    const resumed = await harness.ok('delib_consult', { deliberationId: id });
    expect(resumed).toMatchObject({ at: 'n=1 CONSTRUCTIVE active', consult: { status: 'done', reply: { points: [{ id: 'P1.1' }] } } });
  });

  it('a consult that fails after an advance says the judgment was applied, so it is not sent twice', async () => {
    let calls = 0;
    const codex = fakeCodex((prompt) => (prompt.includes('Iteration 1/8') ? '1. INFERENCE: Redis keeps sessions across a restart.' : 'No further points.'));
    harness = await startHarness({
      runCodex: async (options) => {
        if (++calls === 2) throw new BackendError('timeout', 'codex did not answer within 600 s');
        return codex.run(options);
      },
    });
    const id: string = (await harness.ok('delib_start', { question: 'Redis or Memcached?' })).deliberationId;
    const judgment = { deliberationId: id, points: [{ id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'a restart must not log every user out' }], phase: { advance: true } };
    expect(await harness.refused('delib_judge', judgment)).toMatch(/^\[consult-failed\] the judgment was applied \(P1\.1 -> Agreed \(n\/a\); iteration 2 \(CONSTRUCTIVE\)\), but the consult failed: codex did not answer/);
    expect(await harness.ok('delib_status', { deliberationId: id })).toMatchObject({ n: 2, replyRecorded: false, buckets: { agreed: ['P1.1'] } });
    const resumed = await harness.ok('delib_consult', { deliberationId: id });
    expect(resumed).toMatchObject({ at: 'n=2 CONSTRUCTIVE active', consult: { status: 'done', reply: { nothingFurther: true } } });
  });

  it('bad arguments and unknown ids come back as tool errors with a sentence to act on', async () => {
    harness = await startHarness();
    expect(await harness.refused('delib_start', { question: '' })).toMatch(/Invalid arguments for tool delib_start/);
    expect(await harness.refused('delib_start', { question: 'q', mode: 'turbo' })).toMatch(/mode/);
    expect(await harness.refused('delib_status', { deliberationId: 'nope' })).toMatch(/no deliberation "nope".*delib_start/);
    expect(await harness.refused('delib_status', { deliberationId: '../../etc/passwd' })).toMatch(/invalid/);
    expect(await harness.refused('delib_judge', { deliberationId: 'nope', phase: { advance: true } })).toMatch(/no deliberation "nope"/);
    expect(await harness.refused('delib_judge', { deliberationId: 'x', points: [{ id: 'P1.1', verdict: 'MAYBE' }] })).toMatch(/Invalid arguments for tool delib_judge/);
  });
});
