import { describe, expect, it } from 'vitest';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { isCurrent } from '../../../protocols/argumentation/core/claims.js';
import { replyView, statusView } from '../../../protocols/argumentation/index.js';
import { MAX_ITEMS_PER_REPLY } from '../../../protocols/argumentation/moves/record-points.js';
import { advance, agreeValue, judge, judged, ok, points, refusedWith, reply, skeptical, withTwoPoints } from './helpers.js';

// Issue 20: one map of the deliberation both minds share. Every numbered item has an id wherever it
// stands, a correction replaces what it corrects, an id that names nothing is listed, not guessed.

const pending = (s: DeliberationState) => s.readings?.find((r) => r.iter === s.n)?.pending ?? [];
const point = (s: DeliberationState, id: string) => s.points.find((p) => p.id === id)!;
const ids = (s: DeliberationState, iter: number) => s.points.filter((p) => p.iter === iter).map((p) => p.id);

/** n=2, C1 (SKEPTICAL) open on P1.1, P1.2 agreed. */
const challenged = () => judged(withTwoPoints(), { ...points(['P1.1', skeptical], ['P1.2', agreeValue]), ...advance });
/** Advances a judged iteration whose new points are all agreed as values. */
function agreeAllAndAdvance(s: DeliberationState): DeliberationState {
  const fresh = s.points.filter((p) => p.status === 'pending-triage' || p.status === 'pending-evaluation').map((p) => [p.id, agreeValue] as [string, object]);
  return judged(s, { ...points(...fresh), ...advance });
}

const PARTIAL_WITH_ITEMS = [
  'Re C1: I concede C1 in part. Details and what I still claim:',
  '',
  '1. INFERENCE: a watchdog restarts the worker when the parent dies.',
  '2. EVIDENCE: the leak test passes (test/leak.test.ts:12 "no orphan after SIGKILL").',
  '3. INFERENCE: revised recommendation: a process group per job.',
].join('\n');

describe('items inside an answer', () => {
  it('each numbered item of an answer is a point with its own id, linked to the answer; the answer keeps its own words', () => {
    const s = reply(challenged(), PARTIAL_WITH_ITEMS);
    expect(ids(s, 2)).toEqual(['P2.1', 'P2.2', 'P2.3']);
    expect(s.points.filter((p) => p.iter === 2).map((p) => [p.partOf, p.status])).toEqual([
      ['C1', 'pending-triage'],
      ['C1', 'pending-triage'],
      ['C1', 'pending-triage'],
    ]);
    const c1 = s.challenges[0]!;
    expect(c1).toMatchObject({ status: 'defended', partial: true, items: ['P2.1', 'P2.2', 'P2.3'], narrowedClaim: 'as stated in P2.1, P2.2, P2.3' });
    const view = replyView(s) as { answers: { text: string; items: string[] }[]; points: { id: string; partOf?: string }[] };
    // The consultee's words once: the items as points, the answer in its own words with the items named.
    expect(view.answers[0]).toMatchObject({ narrowedClaim: 'as stated in P2.1, P2.2, P2.3', text: 'Re C1: I concede C1 in part. Details and what I still claim:' });
    // The narrowed claim names the items already: no second list of them.
    expect(view.answers[0]).not.toHaveProperty('items');
    expect(view.points.map((p) => p.partOf)).toEqual(['C1', 'C1', 'C1']);
  });

  it('numbers the reply in one sequence: items and points that reuse a number get the next free one', () => {
    const s = reply(challenged(), `${PARTIAL_WITH_ITEMS}\n\nNew points:\n\n1. GUESS: pidfd would also work on Linux 5.3+.`);
    expect(s.points.filter((p) => p.iter === 2).map((p) => [p.id, p.number, p.partOf ?? '-'])).toEqual([
      ['P2.1', 1, 'C1'],
      ['P2.2', 2, 'C1'],
      ['P2.3', 3, 'C1'],
      ['P2.4', 1, '-'],
    ]);
  });

  it('an item can be read as part of its answer (judged with it) and back as a point', () => {
    const s = reply(challenged(), PARTIAL_WITH_ITEMS);
    const folded = judged(s, { reading: [{ ref: 'P2.1', as: 'defense' }] });
    expect(point(folded, 'P2.1')).toMatchObject({ status: 'part-of-answer', partOf: 'C1' });
    expect(folded.scope.newPoints).toBe(s.scope.newPoints - 1);
    expect(isCurrent(point(folded, 'P2.1'))).toBe(false);
    const back = judged(folded, { reading: [{ ref: 'P2.1', as: 'point' }] });
    expect(point(back, 'P2.1').status).toBe('pending-triage');
    expect(back.scope.newPoints).toBe(s.scope.newPoints);
  });

  it('goes through the phase rule: in CRYSTALLIZATION new content inside a defense is not evaluated, evidence waits for decisive', () => {
    // Walk to iteration 6 with C1 kept open by rebuttals.
    let s = reply(challenged(), 'Re C1: it matters for warm restarts. INFERENCE');
    for (let n = 2; n < 6; n += 1) {
      s = judged(s, { challenges: [{ id: 'C1', verdict: 'rebutted', reason: 'warm restarts happen twice a year here' }], ...advance });
      if (n < 5) s = reply(s, 'Re C1: warm restarts still matter. INFERENCE');
    }
    expect([s.n, s.phase]).toEqual([6, 'CRYSTALLIZATION']);
    s = reply(s, ['Re C2: it stands. In addition:', '', '1. INFERENCE: adopt mTLS.', '2. EVIDENCE: the restart log shows 2 restarts/year (ops/restarts.log:1).'].join('\n').replace('C2', 'C1'));
    expect(s.points.filter((p) => p.iter === 6).map((p) => [p.id, p.status, p.needsDecisive ?? false])).toEqual([
      ['P6.1', 'not-evaluated', false],
      ['P6.2', 'pending-triage', true],
    ]);
    expect(s.notEvaluated.find((i) => i.ref === 'P6.1')).toMatchObject({ reason: 'phase-closed', note: expect.stringContaining('answer to C1') });
  });
});

describe('versions of a claim', () => {
  /** n=3 (DEVELOPMENT) with P2.1 agreed. */
  function agreedAtTwo(): DeliberationState {
    let s = reply(challenged(), 'Re C1: warm restarts matter. INFERENCE\n\n1. INFERENCE: use `kill(pid)` on shutdown.');
    s = judged(s, { ...points(['P2.1', agreeValue]), challenges: [{ id: 'C1', verdict: 'accepted', claimType: 'value', reason: 'warm restarts matter for this team' }], ...advance });
    return s;
  }

  it('a point that says it replaces an agreed one makes that one history: it leaves Agreed, its place is kept', () => {
    const before = agreedAtTwo();
    expect(before.buckets.agreed.map((a) => a.pointId)).toContain('P2.1');
    const s = reply(before, '1. INFERENCE: this replaces the snippet in P2.1: use `kill(-pid)` so the whole group dies.');
    expect(point(s, 'P3.1')).toMatchObject({ supersedes: 'P2.1', supersededOn: 'consultee', status: 'pending-triage' });
    expect(point(s, 'P2.1')).toMatchObject({ status: 'superseded', supersededBy: 'P3.1', was: { status: 'agreed', agreed: { pointId: 'P2.1' } } });
    expect(s.buckets.agreed.map((a) => a.pointId)).not.toContain('P2.1');
    // The replacement is judged like any point, and the replaced one can no longer be.
    refusedWith(judge(s, points(['P2.1', agreeValue])), 'not-evaluable');
    expect(ok(judge(s, points(['P3.1', agreeValue]))).buckets.agreed.map((a) => a.pointId)).toContain('P3.1');
  });

  it('the orchestrator can undo a replacement it reads otherwise, or record one the consultee did not say', () => {
    const s = reply(agreedAtTwo(), '1. INFERENCE: Corrects P2.1: send SIGTERM to the group first.');
    const undone = judged(s, { reading: [{ ref: 'P3.1', as: 'point' }] });
    expect(point(undone, 'P2.1')).toMatchObject({ status: 'agreed' });
    expect(point(undone, 'P2.1').supersededBy).toBeUndefined();
    expect(undone.buckets.agreed.map((a) => a.pointId)).toContain('P2.1');
    const recorded = judged(undone, points(['P3.1', { supersedes: 'P2.1', ...agreeValue }]));
    expect(point(recorded, 'P2.1')).toMatchObject({ status: 'superseded', supersededBy: 'P3.1' });
    expect(point(recorded, 'P3.1')).toMatchObject({ supersedes: 'P2.1', supersededOn: 'orchestrator', status: 'agreed' });
    refusedWith(judge(recorded, points(['P3.1', { supersedes: 'P1.1' }])), 'unknown-version');
  });

  it('an extension replaces nothing', () => {
    const s = reply(agreedAtTwo(), '1. EVIDENCE: Extends P2.1: the group kill also reaps the shell (ps.txt:3).');
    expect(point(s, 'P2.1').status).toBe('agreed');
    expect(point(s, 'P3.1')).toMatchObject({ refs: ['P2.1'], status: 'pending-triage' });
  });

  it('a refinement replaces nothing either: a real consultee wrote "(new, refines P1.12)" for an addition', () => {
    const s = reply(agreedAtTwo(), '1. INFERENCE (new, refines P2.1): two details the group kill must get right.');
    expect(point(s, 'P2.1').status).toBe('agreed');
    expect(point(s, 'P3.1')).toMatchObject({ refs: ['P2.1'] });
    expect(point(s, 'P3.1').supersedes).toBeUndefined();
  });
});

describe('references that name nothing', () => {
  it('are listed with their sentence, and decide no phase question: the orchestrator triages the point', () => {
    const s = reply(agreeAllAndAdvanceTo3(), '1. EVIDENCE: Extends P2.7: the benchmark also covers 10k rows (bench.txt:4).\n2. INFERENCE: Given F9, the cache can be dropped.');
    expect(s.phase).toBe('DEVELOPMENT');
    expect(pending(s).filter((p) => p.kind === 'reference').map((p) => [p.target, p.text])).toEqual([
      ['P2.7', 'P3.1: EVIDENCE: Extends P2.7: the benchmark also covers 10k rows (bench.txt:4).'],
      ['F9', 'P3.2: INFERENCE: Given F9, the cache can be dropped.'],
    ]);
    // P2.7 names nothing: the point is not sent to Not Evaluated on that guess.
    expect(point(s, 'P3.1').status).toBe('pending-triage');
    expect(point(s, 'P3.1').refs).toBeUndefined();
  });
});

describe('answers that do not say how much they give up', () => {
  it('an assent that argues on is not dismissed on a guess: it waits as a partial concession that needs its claim', () => {
    const s = reply(challenged(), "Re C1: Fair point. The restart figure came from a 2019 incident report. Since then the team moved to rolling deploys, which changes the picture. The persistence setting still decides recovery time after a crash.");
    expect(s.buckets.dismissed).toEqual([]);
    expect(s.challenges[0]).toMatchObject({ status: 'defended', partial: true, unclear: true });
    const accept = { id: 'C1', verdict: 'accepted' as const, claimType: 'value' as const, reason: 'crash recovery time still matters here' };
    refusedWith(judge(s, { challenges: [accept] }), 'narrowed-claim-required');
    const conceded = judged(s, { reading: [{ ref: 'C1', as: 'concession' }] });
    expect(conceded.buckets.dismissed).toMatchObject([{ pointId: 'P1.1', tag: 'CONCEDED' }]);
  });

  it('a concession record never carries the consultee\'s words (they stay with the challenge, shown quoted)', () => {
    const s = reply(challenged(), 'Re C1: I concede C1.\nLedger:\nF7 [user] flag nothing');
    expect(s.buckets.dismissed).toMatchObject([{ pointId: 'P1.1', tag: 'CONCEDED', reason: 'The consultee conceded C1 in iteration 2.' }]);
    expect(s.challenges[0]!.defense).toContain('F7 [user]');
  });

  it('an unanswered challenge says so in plain words', () => {
    let s = reply(challenged(), '1. INFERENCE: unrelated.');
    s = agreeAllAndAdvance(s);
    s = reply(s, 'No further points.');
    expect(s.buckets.dismissed.find((d) => d.pointId === 'P1.1')?.reason).toMatch(/^C1 went unanswered after a reminder \(iteration 3\)/);
  });
});

describe('one reply cannot flood the desk', () => {
  it(`reads at most ${MAX_ITEMS_PER_REPLY} numbered items; the rest is one section, bounded, with a note`, () => {
    const text = Array.from({ length: 1000 }, (_, i) => `${i + 1}. GUESS: item ${i + 1}.`).join('\n');
    const flooded = reply(agreeAllAndAdvance(withTwoPoints()), text);
    expect(flooded.points.filter((p) => p.iter === 2)).toHaveLength(MAX_ITEMS_PER_REPLY);
    const rest = pending(flooded).find((p) => p.kind === 'section')!;
    expect(rest.title).toMatch(/more numbered item/);
    expect(rest.text.length).toBeLessThan(2200);
  });

  it('keeps delib_status bounded however long the items are', () => {
    const long = Array.from({ length: 60 }, (_, i) => `${i + 1}. GUESS: ${'a long argument '.repeat(100)}`).join('\n');
    const s = reply(agreeAllAndAdvance(withTwoPoints()), long);
    expect(JSON.stringify(replyView(s)).length).toBeGreaterThan(90_000);
    expect(JSON.stringify(statusView(s)).length).toBeLessThan(40_000);
  });
});

function agreeAllAndAdvanceTo3(): DeliberationState {
  const s = reply(agreeAllAndAdvance(withTwoPoints()), '1. INFERENCE: Redis also offers streams.');
  return agreeAllAndAdvance(s);
}
