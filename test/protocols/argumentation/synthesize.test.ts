import { describe, expect, it } from 'vitest';
import { arbitrationPrecheck, buildArbitrationPrompt, nextLegalMoves, placeCounts, statusView, synthesize } from '../../../protocols/argumentation/index.js';
import { advance, agreeValue, apply, ctx, judge, judged, ok, points, recommendation, refusedWith, reply, reportOf, skeptical, start, step, briefOf, withTwoPoints } from './helpers.js';

/** Standard mode, ended early (trivial) with P1.1 agreed, P1.2 ill-formed and an unverified fact. */
function finished() {
  const s = judged(withTwoPoints({ mode: 'standard' }), {
    ledger: [{ action: 'add', text: 'Redis is 2x faster', tag: 'codex-unverified' }],
    ...points(['P1.1', agreeValue], ['P1.2', { verdict: 'ILL-FORMED', flaw: 'Simpler in what sense?' }]),
    phase: { trivial: true },
  });
  expect(s.termination?.reason).toBe('early-exit-trivial');
  return s;
}

describe('synthesize', () => {
  it('refuses before termination', () => {
    expect(refusedWith(apply(withTwoPoints(), 'synthesize', recommendation), 'not-terminated')).toEqual(['delib_judge']);
  });

  it('needs a recommendation: the report answers the question and leads with it', () => {
    const s = finished();
    expect(refusedWith(apply(s, 'synthesize', {}), 'recommendation-required')).toContain('delib_synthesize');
    refusedWith(apply(s, 'synthesize', { recommendation: '', confidence: 'high' }), 'invalid-input');
    const r = ok(synthesize(s, ctx, { ...recommendation, caveats: ['no load test yet'] }));
    expect(r.recommendation).toEqual({ text: recommendation.recommendation, confidence: 'medium', caveats: ['no load test yet'] });
    expect(briefOf(r)).toMatchObject({ decision: recommendation.recommendation, confidence: 'medium', caveats: ['no load test yet'] });
    const md = reportOf(r);
    expect(md.indexOf(recommendation.recommendation)).toBeGreaterThan(0);
    expect(md.indexOf(recommendation.recommendation)).toBeLessThan(md.indexOf('AGREED'));
    expect(md).toContain('no load test yet');
    // Synthesized again, the report keeps the recommendation already given.
    expect(briefOf(ok(synthesize(r, ctx))).decision).toBe(recommendation.recommendation);
  });

  it('puts every point in exactly one place, lists unverified facts and leftovers as Not Evaluated, and renders both forms', () => {
    const s = ok(synthesize(finished(), ctx, recommendation));
    expect([...placeCounts(s).values()].every((c) => c === 1)).toBe(true);
    expect(s.notEvaluated.map((n) => [n.ref, n.reason])).toEqual([
      ['P1.2', 'ill-formed'],
      ['F1', 'unverified-fact'],
    ]);
    const md = reportOf(s);
    for (const h of ['## AGREED', '## NOT EVALUATED']) expect(md).toContain(h);
    expect(md).toContain('P1.1');
    expect(md).toMatch(/## NOT EVALUATED \(2\)\n\n- 1 point never clarified \(P1\.2\)[\s\S]*- 1 consultee claim never verified \(F1\)/);
    expect(briefOf(s)).toMatchObject({ turnsOn: ["Redis supports persistence. docs say RDB snapshots. — a value judgment: simplicity matters for a small team"] });
    expect(briefOf(s).warnings).toBeUndefined();
    expect(nextLegalMoves(s).find((m) => m.move === 'delib_arbitrate')?.why).toContain('early unanimity without evidence');
  });

  it('flags an inconclusive result with what would unblock each item', () => {
    const blocked = { bucket: 'unresolved', status: 'blocked', crux: 'no latency numbers exist', measurement: 'p99 latency', threshold: '5 ms', verdictChange: 'above it the point falls' };
    let s = judged(withTwoPoints({ mode: 'quick' }), { ...points(['P1.1', skeptical], ['P1.2', skeptical]), ...advance });
    s = judged(reply(s, '1. The numbers are unknown either way. INFERENCE'), { ...points(['P2.1', { triage: 'out-of-scope', reason: 'a remark, not an argument' }]), ...advance });
    expect(s.termination?.reason).toBe('iteration-cap');
    refusedWith(apply(s, 'synthesize', recommendation), 'coverage');
    expect(nextLegalMoves(s).map((m) => m.move)).toEqual(['delib_judge']);
    s = judged(s, points(['P1.1', blocked], ['P1.2', blocked]));
    expect(briefOf(step(s, 'synthesize', recommendation)).warnings).toBeUndefined(); // the out-of-scope dismissal counts

    const tradeoff = { bucket: 'unresolved', status: 'tradeoff', crux: 'speed against simplicity' };
    let q = judged(withTwoPoints({ mode: 'quick' }), { ...points(['P1.1', skeptical], ['P1.2', skeptical]), ...advance });
    q = judged(reply(q, '1. Still unknown. GUESS'), { ...points(['P2.1', { triage: 'anchor-shift', reason: 'asks whether a cache is needed' }]), ...advance });
    q = judged(q, points(['P1.1', tradeoff], ['P1.2', tradeoff]));
    const inc = step(q, 'synthesize', recommendation);
    expect(briefOf(inc).warnings).toEqual(['inconclusive: nothing was agreed or ruled out; what would settle each open claim is under open']);
    expect(briefOf(inc).open).toEqual(['Redis supports persistence. docs say RDB snapshots. — open: speed against simplicity', 'Memcached is simpler to operate. — open: speed against simplicity']);
    expect(reportOf(inc)).toMatch(/## UNRESOLVED \(3\)[\s\S]*P1\.1[\s\S]*P1\.2[\s\S]*P2\.1/);
    expect(reportOf(inc)).toContain('Inconclusive');
  });
});

describe('modes', () => {
  it('quick mode: no phases, no challenge ids, at most 2 iterations, still the evidence gate', () => {
    let s = withTwoPoints({ mode: 'quick' });
    expect(s.phase).toBeNull();
    s = judged(s, points(['P1.1', skeptical]));
    expect(s.challenges).toEqual([]);
    refusedWith(judge(s, points(['P1.1', { bucket: 'agreed', claimType: 'empirical', reason: 'the docs seem to say so', revision: { from: 'SKEPTICAL', because: 'docs checked just now' } }])), 'evidence-gate');
    expect(refusedWith(judge(s, { challenges: [{ id: 'C1', verdict: 'accepted', reason: 'fine by me now' }] }), 'quick-mode')).toEqual([]);
    refusedWith(apply(s, 'arbitration_record', { items: [] }), 'mode-quick');
  });

  it('minimal mode refuses arbitration', () => {
    refusedWith(apply(withTwoPoints({ mode: 'minimal' }), 'arbitration_record', { items: [] }), 'mode-minimal');
  });
});

describe('arbitration', () => {
  it('needs exactly one flag per bucket item; >= 50% flagged carries a warning into the report', () => {
    const s = finished();
    refusedWith(apply(withTwoPoints({ mode: 'standard' }), 'arbitration_record', { items: [] }), 'arbitrate-after-termination');
    refusedWith(apply(s, 'arbitration_record', { items: [{ ref: 'P9.9', flagged: true }] }), 'arbitration-coverage');
    const a = step(s, 'arbitration_record', { items: [{ ref: 'P1.1', flagged: true, note: 'value claim, thin reason' }] });
    expect(a.arbitration).toMatchObject({ flaggedRatio: 1, warning: true });
    expect(reportOf(step(a, 'synthesize', recommendation))).toContain('Warning');
    expect(briefOf(step(a, 'synthesize', recommendation)).warnings).toEqual(['a fresh reviewer flagged 100% of the placements: treat this result with caution']);
  });

  it('keeps the per-item notes and the remarks, and rebuilds a report built before it', () => {
    const synthesized = step(finished(), 'synthesize', recommendation);
    expect(briefOf(synthesized).reviewer).toBeUndefined();
    const remarks = 'The Redis side was never argued by anyone who wanted it to win.';
    const r = apply(synthesized, 'arbitration_record', { items: [{ ref: 'P1.1', flagged: true, note: 'value claim, thin reason' }], remarks, reviewer: 'arbiter-1' });
    const a = ok(r);
    expect(r.ok && r.effects).toContain('report rebuilt with the arbitration');
    expect(a.arbitration).toMatchObject({ items: [{ ref: 'P1.1', flagged: true, note: 'value claim, thin reason' }], remarks, reviewer: 'arbiter-1' });
    expect(briefOf(a).reviewer).toEqual(['a fresh reviewer flagged 1 of 1 placements', 'flagged "Redis supports persistence. docs say RDB snapshots.": value claim, thin reason', remarks]);
    for (const part of ['value claim, thin reason', 'The Redis side was never argued', recommendation.recommendation]) expect(reportOf(a)).toContain(part);
    expect(nextLegalMoves(a).map((m) => m.move)).not.toContain('delib_arbitrate');
  });

  it('is recorded once: a second one is refused by the pre-check the server asks before any model call', () => {
    const a = step(finished(), 'arbitration_record', { items: [{ ref: 'P1.1', flagged: false }], reviewer: 'arbiter-1' });
    const again = arbitrationPrecheck(a);
    expect(again && !again.ok && again.refusal).toMatchObject({ rule: 'already-arbitrated', message: expect.stringContaining('arbiter-1') });
    const legal = refusedWith(apply(a, 'arbitration_record', { items: [{ ref: 'P1.1', flagged: true }] }), 'already-arbitrated');
    expect(legal).toContain('delib_synthesize');
    expect(legal).not.toContain('delib_arbitrate');
  });

  it("the report keeps the arbiter's notes on items it did not flag, one line per note", () => {
    const s = judged(withTwoPoints({ mode: 'standard' }), { ...points(['P1.1', agreeValue], ['P1.2', agreeValue]), phase: { trivial: true } });
    const items = [
      { ref: 'P1.1', flagged: false, note: 'sound, though it leans on the team being small' },
      { ref: 'P1.2', flagged: false, note: 'not mentioned by the reviewer' },
    ];
    const md = reportOf(step(step(s, 'synthesize', recommendation), 'arbitration_record', { items }));
    const section = md.slice(md.indexOf('## ARBITRATION'));
    expect(section).toContain('flagged 0 of 2 items (0%)');
    expect(section).toContain('Not flagged, with a note:');
    expect(section).toContain('- **P1.1** (agreed): sound, though it leans on the team being small');
    expect(section).toContain('- **P1.2** (agreed): not mentioned by the reviewer');
  });

  it('the arbitration view is unattributed and never shows unverified consultee claims', () => {
    const s = judged(finished(), { ledger: [{ action: 'add', text: 'Team runs Redis already', tag: 'user' }] });
    const prompt = buildArbitrationPrompt(s);
    expect(prompt).toContain(s.question);
    expect(prompt).toContain('Team runs Redis already');
    expect(prompt).not.toContain('Redis is 2x faster');
    expect(prompt.toLowerCase()).not.toMatch(/consultee|orchestrator|codex/);
  });

  it('names no role but leaves package names and paths that contain one as written (a scratch path is said as such: issue 27, item 12)', () => {
    const s = reply(start(), '1. EVIDENCE: Codex ran it in /tmp/codex-scratch/run.sh from ~/src/codex-tools; the consultee pins @openai/codex. See Claude.\n2. INFERENCE: Use Redis.');
    const done = judged(s, points(['P1.1', { verdict: 'AGREE', claimType: 'empirical', evidenceType: 'execution', evidence: 'ran run.sh: exit 0', reason: 'the script exits cleanly on a fresh checkout' }], ['P1.2', agreeValue]));
    const prompt = buildArbitrationPrompt(done);
    expect(prompt).toContain("a participant ran it in <the author's scratch file run.sh> from ~/src/codex-tools; a participant pins @openai/codex. See a participant.");
  });
});

describe('statusView and nextLegalMoves', () => {
  it('shows what awaits judgment with its full text, and names tools', () => {
    const s = judged(withTwoPoints(), points(['P1.1', skeptical]));
    expect(statusView(s)).toMatchObject({
      n: 1,
      phase: 'CONSTRUCTIVE',
      openChallenges: [{ id: 'C1', point: 'P1.1', type: 'SKEPTICAL' }],
      awaiting: [{ id: 'P1.2', status: 'pending-evaluation', text: 'Memcached is simpler to operate. INFERENCE' }],
      buckets: { agreed: [], dismissed: [], unresolved: [], notEvaluated: [] },
    });
    const next = nextLegalMoves(s);
    expect(next.map((m) => m.move)).toEqual(['delib_judge']);
    expect(next[0]?.why).toMatch(/^verdicts for P1\.2; then phase\.advance \(new points: another iteration; a synthesis given now ends it if Codex's reply then has nothing further\)$/);
  });
});

describe('the report keeps what a real review needed (2026-11-24-review)', () => {
  it("lists the consultee's sections nobody placed, in full, and drops a Why that only restates the evidence", () => {
    const text = '1. Redis supports persistence. EVIDENCE: docs say RDB snapshots.\n\n## Priority\n\nFix P1.1 before merging; the rest can follow.';
    let s = step(start(), 'reply_record', { text });
    const agree = { verdict: 'AGREE', claimType: 'empirical', evidenceType: 'execution', evidence: 'ran redis-cli CONFIG GET save: "3600 1"' };
    s = judged(s, { ...points(['P1.1', agree]), phase: { advance: true, trivial: true }, synthesis: recommendation });
    const md = reportOf(s);
    expect(md).toMatch(/## THE CONSULTEE'S OTHER REMARKS \(read, not placed, not evaluated\)\n\n- \*\*S1\*\* \(iteration 1\) Priority {2}\n {2}Fix P1\.1 before merging; the rest can follow\./);
    expect(md).toContain('Empirical claim · execution evidence: ran redis-cli CONFIG GET save');
    expect(md).not.toMatch(/Why: shown by its/);
  });
});
