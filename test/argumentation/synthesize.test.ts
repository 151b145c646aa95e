import { describe, expect, it } from 'vitest';
import { buildArbitrationPrompt, nextLegalMoves, placeCounts, statusView, synthesize } from '../../protocols/argumentation/index.js';
import { agreeValue, apply, ctx, ok, refusedWith, skeptical, step, withTwoPoints } from './helpers.js';

function finished() {
  let s = step(withTwoPoints(), 'ledger_update', { action: 'add', text: 'Redis is 2x faster', tag: 'codex-unverified' });
  s = step(s, 'point_evaluate', { pointId: 'P1.1', ...agreeValue });
  s = step(s, 'point_evaluate', { pointId: 'P1.2', classification: 'ILL-FORMED', flaw: 'Simpler in what sense?' });
  return step(s, 'iteration_advance', { trivial: true });
}

describe('delib_synthesize', () => {
  it('refuses before termination', () => {
    refusedWith(apply(withTwoPoints(), 'delib_synthesize', {}), 'not-terminated');
  });

  it('puts every point in exactly one place, lists unverified facts and leftovers as Not Evaluated, and renders both forms', () => {
    const s = ok(synthesize(finished(), ctx));
    expect([...placeCounts(s).values()].every((c) => c === 1)).toBe(true);
    expect(s.notEvaluated.map((n) => [n.ref, n.reason])).toEqual([
      ['P1.2', 'ill-formed'],
      ['F1', 'unverified-fact'],
    ]);
    const md = s.report?.markdown ?? '';
    for (const h of ['## AGREED', '## DISMISSED', '## UNRESOLVED', '## SURFACED QUESTIONS', '## NOT EVALUATED']) expect(md).toContain(h);
    expect(md).toContain('P1.1');
    expect(s.report?.json).toMatchObject({ inconclusive: false, agreed: [{ ref: 'P1.1', evidenceType: 'n/a' }] });
    expect(nextLegalMoves(s).find((m) => m.move === 'arbitration_record')?.why).toContain('early unanimity without evidence');
  });

  it('flags an inconclusive result with what would unblock each item', () => {
    let s = step(withTwoPoints({ mode: 'quick' }), 'point_evaluate', { pointId: 'P1.1', ...skeptical });
    s = step(s, 'point_evaluate', { pointId: 'P1.2', ...skeptical });
    s = step(s, 'iteration_advance', {});
    s = step(s, 'reply_record', { text: '1. Nothing new, the numbers are unknown. INFERENCE' });
    s = step(s, 'point_triage', { pointId: 'P2.1', triage: 'out-of-scope', reason: 'a remark, not an argument' });
    s = step(s, 'iteration_advance', {});
    expect(s.termination?.reason).toBe('iteration-cap');
    refusedWith(apply(s, 'delib_synthesize', {}), 'coverage');
    expect(nextLegalMoves(s)[0]?.move).toBe('bucket_assign');
    for (const id of ['P1.1', 'P1.2']) {
      s = step(s, 'bucket_assign', { pointId: id, bucket: 'unresolved', status: 'blocked', crux: 'no latency numbers exist', measurement: 'p99 latency', threshold: '5 ms', verdictChange: 'above it the point falls' });
    }
    const r = step(s, 'delib_synthesize', {});
    expect(r.report?.json.inconclusive).toBe(false); // the out-of-scope dismissal counts
    const only = step(step(withTwoPoints({ mode: 'quick' }), 'point_evaluate', { pointId: 'P1.1', ...skeptical }), 'point_evaluate', { pointId: 'P1.2', ...skeptical });
    let q = step(only, 'iteration_advance', {});
    q = step(q, 'reply_record', { text: 'Re C1: n/a\n1. Still unknown. GUESS' });
    q = step(q, 'point_triage', { pointId: 'P2.1', triage: 'anchor-shift', reason: 'asks whether a cache is needed' });
    q = step(q, 'iteration_advance', {});
    for (const id of ['P1.1', 'P1.2']) {
      q = step(q, 'bucket_assign', { pointId: id, bucket: 'unresolved', status: 'tradeoff', crux: 'speed against simplicity' });
    }
    const inc = step(q, 'delib_synthesize', {});
    expect(inc.report?.json.inconclusive).toBe(true);
    expect(inc.report?.json.unblock).toHaveLength(3);
    expect(inc.report?.markdown).toContain('Inconclusive');
  });
});

describe('modes', () => {
  it('quick mode: no phases, no challenge ids, at most 2 iterations, still the evidence gate', () => {
    let s = withTwoPoints({ mode: 'quick' });
    expect(s.phase).toBeNull();
    s = step(s, 'point_evaluate', { pointId: 'P1.1', ...skeptical });
    expect(s.challenges).toEqual([]);
    refusedWith(apply(s, 'bucket_assign', { pointId: 'P1.1', bucket: 'agreed', claimType: 'empirical', reason: 'the docs seem to say so', revision: { from: 'SKEPTICAL', because: 'docs checked just now' } }), 'evidence-gate');
    refusedWith(apply(s, 'challenge_resolve', { challengeId: 'C1', verdict: 'accepted', reason: 'fine by me now' }), 'quick-mode');
    refusedWith(apply(s, 'arbitration_record', { items: [] }), 'mode-quick');
  });

  it('minimal mode refuses arbitration', () => {
    refusedWith(apply(withTwoPoints({ mode: 'minimal' }), 'arbitration_record', { items: [] }), 'mode-minimal');
  });
});

describe('arbitration', () => {
  it('needs exactly one flag per bucket item; >= 50% flagged carries a warning into the report', () => {
    const s = finished();
    refusedWith(apply(withTwoPoints(), 'arbitration_record', { items: [] }), 'arbitrate-after-termination');
    refusedWith(apply(s, 'arbitration_record', { items: [{ ref: 'P9.9', flagged: true }] }), 'arbitration-coverage');
    const a = step(s, 'arbitration_record', { items: [{ ref: 'P1.1', flagged: true, note: 'value claim, thin reason' }] });
    expect(a.arbitration).toMatchObject({ flaggedRatio: 1, warning: true });
    expect(step(a, 'delib_synthesize', {}).report?.markdown).toContain('Warning');
  });

  it('the arbitration view is unattributed and never shows unverified consultee claims', () => {
    let s = finished();
    s = step(s, 'ledger_update', { action: 'add', text: 'Team runs Redis already', tag: 'user' });
    const prompt = buildArbitrationPrompt(s);
    expect(prompt).toContain(s.question);
    expect(prompt).toContain('Team runs Redis already');
    expect(prompt).not.toContain('Redis is 2x faster');
    expect(prompt.toLowerCase()).not.toMatch(/consultee|orchestrator|codex/);
  });
});

describe('statusView and nextLegalMoves', () => {
  it('summarizes the state compactly', () => {
    const s = step(withTwoPoints(), 'point_evaluate', { pointId: 'P1.1', ...skeptical });
    expect(statusView(s)).toMatchObject({
      n: 1,
      phase: 'CONSTRUCTIVE',
      openChallenges: [{ id: 'C1', point: 'P1.1', type: 'SKEPTICAL' }],
      unevaluatedPoints: [{ id: 'P1.2', status: 'pending-evaluation' }],
      buckets: { agreed: 0, dismissed: 0, unresolved: 0, notEvaluated: 0 },
    });
    expect(nextLegalMoves(s).map((m) => m.move)).toContain('point_evaluate');
    expect(nextLegalMoves(s).map((m) => m.move)).not.toContain('iteration_advance');
  });
});
