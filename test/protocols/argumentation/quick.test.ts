import { describe, expect, it } from 'vitest';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { buildConsulteePrompt, consultPrecheck, nextConsulteePrompt, nextLegalMoves, replyView } from '../../../protocols/argumentation/index.js';
import { advance, agreeValue, apply, judge, judged, points, recommendation, refusedWith, reply, skeptical, start, step, briefOf } from './helpers.js';

const quick = () => reply(start({ mode: 'quick', constraints: ['No new services'] }), '1. Use Postgres SKIP LOCKED. INFERENCE\n2. Redis Streams add a service. EVIDENCE: compose.yml:1\n3. Both handle 50 jobs/s. GUESS');
/** n=2: P1.1 agreed, P1.2 and P1.3 objected to. */
const objected = () => judged(quick(), { ...points(['P1.1', agreeValue], ['P1.2', skeptical], ['P1.3', { verdict: 'REJECT', flaw: 'Nobody measured 50 jobs/s.', claimType: 'empirical', evidence: 'no benchmark in the repo', terminalWhy: 'a guess cannot settle throughput' }]), ...advance });
const noChallengeIds = (prompt: string) => expect(prompt).not.toMatch(/\bC\d|Re C/);

describe('quick mode', () => {
  it('no prompt ever names a challenge id: objections go by point id', () => {
    const first = start({ mode: 'quick' });
    noChallengeIds(buildConsulteePrompt(first, 'first'));
    const s = objected();
    expect(s.challenges).toEqual([]);
    const next = buildConsulteePrompt(s, 'next');
    noChallengeIds(next);
    expect(next).toContain('Re P1.2: ...');
    expect(next).toContain('P1.3 (REJECT): Nobody measured 50 jobs/s.');
    noChallengeIds(buildConsulteePrompt(s, 'recovery'));
    noChallengeIds(nextConsulteePrompt(reply(s, 'prose only')).prompt);
    noChallengeIds(nextConsulteePrompt(reply(first, 'prose only')).prompt);
  });

  it("a synthesis held over the last turn: Codex conceding everything with nothing further ends it; a defense leaves it to the orchestrator's placing judgment", () => {
    const held = () => judged(quick(), { ...points(['P1.1', agreeValue], ['P1.2', skeptical], ['P1.3', agreeValue]), ...advance, synthesis: recommendation });
    expect(held().heldSynthesis?.recommendation).toBe(recommendation.recommendation);
    const conceded = apply(held(), 'reply_record', { text: 'Re P1.2 — conceded.\n\nNo further points.' });
    expect(conceded.ok && [conceded.state.status, !!conceded.state.report, conceded.state.buckets.dismissed.map((i) => i.pointId)]).toEqual(['terminated', true, ['P1.2']]);
    const defended = apply(held(), 'reply_record', { text: 'Re P1.2: a second service is cheap on our managed platform. INFERENCE\n\nNo further points.' });
    expect(defended.ok && [defended.state.status, defended.state.report, defended.state.heldSynthesis]).toEqual(['active', undefined, undefined]);
    expect(defended.ok && defended.effects.join('\n')).toMatch(/the held synthesis was not applied: the reply leaves something for you to judge or place/);
    const placed = judged(defended.ok ? defended.state : held(), { ...points(['P1.2', { bucket: 'dismissed', tag: 'FALSE', reason: 'one VM runs both' }]), ...advance, synthesis: recommendation });
    expect([placed.status, !!placed.report]).toEqual(['terminated', true]);
  });

  it('"Re P1.3 — conceded" dismisses the point CONCEDED; a defense keeps it contested until placed', () => {
    const s = reply(objected(), 'Re P1.2: a second service is cheap on our managed platform. INFERENCE\n\nRe P1.3 — conceded, nobody measured it.');
    expect(s.buckets.dismissed).toMatchObject([{ pointId: 'P1.3', tag: 'CONCEDED' }]);
    expect(s.points.find((p) => p.id === 'P1.2')).toMatchObject({ status: 'contested', defense: expect.stringContaining('managed platform') });
    expect(replyView(s).answers).toMatchObject([{ point: 'P1.2', text: expect.stringContaining('managed platform') }]);
    expect(nextLegalMoves(s)[0]?.why).toContain('place P1.2');
    // CONCEDED comes only from a reply: the judgment's schema does not even offer it.
    refusedWith(judge(s, points(['P1.2', { bucket: 'dismissed', tag: 'CONCEDED', reason: 'they gave part of it up' }])), 'invalid-input');
    const r = judged(s, { ...points(['P1.2', { bucket: 'unresolved', status: 'tradeoff', crux: 'one more service against queue features' }]), ...advance });
    expect(r.buckets.unresolved).toMatchObject([{ pointId: 'P1.2', status: 'tradeoff' }]);
  });

  it('a point kept with a conditional offer to drop it stays contested, not Dismissed CONCEDED (issue 27, the mind\'s words)', () => {
    const s = judged(quick(), { ...points(['P1.1', skeptical], ['P1.2', agreeValue], ['P1.3', agreeValue]), ...advance });
    const r = apply(s, 'reply_record', { text: 'Re P1.1: INFERENCE: I disagree and keep P1.1. The objection ... shows no run on Node 20 ... If that passes, I drop P1.1.' });
    expect(r.ok && r.effects).toContain('P1.1 defended: place it (bucket)');
    expect(r.ok && r.state.buckets.dismissed).toEqual([]);
    expect(r.ok && r.state.points.find((p) => p.id === 'P1.1')).toMatchObject({ status: 'contested', answer: 'defense' });
  });

  it('new content in a partial concession is a point of its own, not part of the narrowed claim (issue 27 item 4)', () => {
    const r = apply(objected(), 'reply_record', { text: 'Re P1.2: I concede P1.2 partially: I still claim a second service needs its own on-call, and also that we should migrate all login to OAuth.' });
    expect(r.ok && r.effects).toContain('P2.1: a new argument inside the answer on P1.2, a point of its own: judge it');
    const s = r.ok ? r.state : objected();
    expect(s.points.find((p) => p.id === 'P1.2')).toMatchObject({ answer: 'partial', narrowed: 'a second service needs its own on-call.' });
    expect(s.points.find((p) => p.id === 'P2.1')).toMatchObject({ status: 'pending-triage', text: 'we should migrate all login to OAuth.' });
  });

  it('a partial concession keeps the narrowed claim for the report', () => {
    const s = reply(objected(), 'Re P1.2: partly conceded. Narrowed claim: Redis Streams add a service unless one is already run.');
    expect(s.points.find((p) => p.id === 'P1.2')).toMatchObject({ status: 'contested', narrowed: expect.stringContaining('unless one is already run') });
  });

  it('a partial concession whose kept claim cannot be cut out is Agreed only as the orchestrator states it', () => {
    const s = reply(objected(), 'Re P1.2: partly conceded; a second service is a real cost, though not here.');
    expect(s.points.find((p) => p.id === 'P1.2')).toMatchObject({ status: 'contested', answer: 'partial' });
    expect(s.points.find((p) => p.id === 'P1.2')?.narrowed).toBeUndefined();
    const agree = { bucket: 'agreed', claimType: 'value', reason: 'our platform runs Redis already', revision: { from: 'SKEPTICAL', because: 'the platform already runs Redis' } };
    refusedWith(judge(s, points(['P1.2', agree])), 'narrowed-claim-required');
    const r = judged(s, points(['P1.2', { ...agree, claim: 'Redis Streams add a service only where none runs yet.' }]));
    expect(r.points.find((p) => p.id === 'P1.2')).toMatchObject({ status: 'agreed', narrowed: 'Redis Streams add a service only where none runs yet.' });
    refusedWith(judge(r, points(['P1.1', { claim: 'anything' }])), 'nothing-to-restate');
  });

  it('items inside an answer to an objection are points of that answer', () => {
    const s = reply(objected(), 'Re P1.2: it still holds, for two reasons:\n\n1. INFERENCE: the team has no Redis on-call.\n2. EVIDENCE: compose.yml:1 lists only postgres.');
    expect(s.points.filter((p) => p.iter === 2).map((p) => [p.id, p.partOf])).toEqual([['P2.1', 'P1.2'], ['P2.2', 'P1.2']]);
    expect(replyView(s).answers).toMatchObject([{ point: 'P1.2', items: ['P2.1', 'P2.2'], text: 'Re P1.2: it still holds, for two reasons:' }]);
  });

  it('ends at the first advance with nothing contested (convergence), else at the cap of 2', () => {
    const settled = judged(quick(), { ...points(['P1.1', agreeValue], ['P1.2', agreeValue], ['P1.3', { triage: 'out-of-scope', reason: 'throughput is not the question' }]), ...advance });
    expect([settled.n, settled.termination?.reason]).toEqual([1, 'convergence']);
    expect(briefOf(step(settled, 'synthesize', recommendation)).record).toMatch(/^quick mode, 1 iteration, ended by convergence;/);

    let s: DeliberationState = objected();
    s = judged(reply(s, 'Re P1.2: holds. INFERENCE\n\n1. Also consider pg-boss. GUESS'), { ...points(['P2.1', agreeValue]), ...advance });
    expect([s.n, s.status, s.termination?.reason]).toEqual([2, 'terminated', 'iteration-cap']);
    refusedWith(judge(s, advance), 'deliberation-terminated');
    expect(nextLegalMoves(s).map((m) => m.move)).toEqual(['delib_judge']);
  });

  it('two consultee turns in all: a format failure spends one, the retry waits for no third, the judgment ends it', () => {
    // n=2: the reply is unusable; both turns are spent, so no consult is legal and the advance ends it.
    const s = reply(objected(), 'Well, it depends.');
    expect([s.n, s.replyRecorded, s.counters.totalFormatFailures]).toEqual([2, false, 1]);
    const refused = consultPrecheck(s);
    expect(refused && !refused.ok && refused.refusal).toMatchObject({ rule: 'quick-turns-spent', legalMoves: ['delib_judge'] });
    // The engine holds the rule itself: a third reply is refused however it arrives.
    const third = apply(s, 'reply_record', { text: '1. A third answer. INFERENCE' });
    expect(!third.ok && third.refusal).toMatchObject({ rule: 'quick-turns-spent' });
    expect(nextLegalMoves(s)).toEqual([{ move: 'delib_judge', why: expect.stringMatching(/place P1\.2, P1\.3 .*phase\.advance: ends the deliberation \(quick: both consultee turns spent/) }]);
    const placed = points(['P1.2', { bucket: 'dismissed', tag: 'RISKY', reason: 'a second service is unwelcome here' }], ['P1.3', { bucket: 'dismissed', tag: 'FALSE', reason: 'no measurement supports it' }]);
    expect(judged(s, advance).termination).toMatchObject({ reason: 'iteration-cap', note: 'quick: both consultee turns spent at iteration 2' });
    const ended = judged(s, { ...placed, ...advance, synthesis: recommendation });
    expect(ended.status).toBe('terminated');
    expect(ended.buckets.dismissed.map((i) => i.pointId)).toEqual(['P1.2', 'P1.3']);

    // n=1: a format failure and its retry are the two turns: the first advance ends it.
    const retried = reply(reply(start({ mode: 'quick' }), 'prose only'), '1. Use Postgres. INFERENCE');
    expect([retried.n, retried.replyRecorded, consultPrecheck(retried)?.ok]).toEqual([1, true, false]);
    const r = judge(retried, { ...points(['P1.1', skeptical]), ...advance });
    expect(r.ok && [r.state.n, r.state.status, r.effects.at(-1)]).toEqual([1, 'terminated', 'quick: both consultee turns spent']);
    expect(r.ok && nextLegalMoves(r.state)[0]?.why).toContain('place P1.1');
  });

  it('the cap says what comes next as `next` does: place the contested points, not "synthesize"', () => {
    const r = judge(reply(objected(), 'No further points.'), advance);
    expect(r.ok && r.effects).toEqual(['iteration cap reached']);
    expect(r.ok && nextLegalMoves(r.state)).toEqual([{ move: 'delib_judge', why: 'place P1.2, P1.3 (points with a bucket)' }]);
    const settled = judge(reply(objected(), 'Re P1.2: holds. INFERENCE\n\nRe P1.3: conceded.'), { ...points(['P1.2', { bucket: 'unresolved', status: 'tradeoff', crux: 'one more service against queue features' }]), ...advance });
    expect(settled.ok && settled.effects.at(-1)).toMatch(/synthesize/);
  });

  it('a contested point without any answer is placed after the end; synthesis waits for it', () => {
    const s = judged(reply(objected(), 'No further points.'), advance);
    expect(s.termination?.reason).toBe('iteration-cap');
    refusedWith(judge(s, { synthesis: recommendation }), 'coverage');
    const placed = judged(s, { ...points(['P1.2', { bucket: 'dismissed', tag: 'RISKY', reason: 'a second service is unwelcome here' }], ['P1.3', { bucket: 'dismissed', tag: 'FALSE', reason: 'no measurement supports it' }]), synthesis: recommendation });
    expect(placed.buckets.dismissed.map((i) => i.pointId)).toEqual(['P1.2', 'P1.3']);
  });

  it('an answer whose point the same reply replaced asks for nothing: the replacement is what to judge', () => {
    const r = apply(objected(), 'reply_record', { text: 'Re P1.2: partly conceded: a second service is the cost, not the point.\n\n1. INFERENCE: Replaces P1.2: Redis Streams add a service to run and page on.\n\nRe P1.3: I concede P1.3.' });
    expect(r.ok && r.effects).toContain('P2.1 replaces P1.2: judge P2.1');
    expect(r.ok && r.effects.filter((e) => e.startsWith('P1.2'))).toEqual([]);
    expect(nextLegalMoves(r.ok ? r.state : objected())[0]?.why).toMatch(/^verdicts for P2\.1/);
  });
});
