import { describe, expect, it } from 'vitest';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { nextLegalMoves, nextLines } from '../../../protocols/argumentation/index.js';
import { factIdsIn, normaliseFactId, normalisePointId, pointIdsIn, resolveFact, resolvePoint } from '../../../protocols/argumentation/core/references.js';
import { advance, agreeEmpirical, agreeValue, apply, empiricalEvidence, judge, judged, points, recommendation, refusedItem, refusedWith, reply, skeptical, withTwoPoints } from './helpers.js';

/** Issue 20, item 5: every id cited as evidence, premise, verification reference or supersession resolves. */

/** F1 user, F2 codex-unverified, F3 verified. */
function withLedger(): DeliberationState {
  return judged(withTwoPoints({ constraints: ['The cache must survive a restart'] }), {
    ledger: [
      { action: 'add', text: 'Redis writes RDB snapshots', tag: 'codex-unverified' },
      { action: 'add', text: 'redis.conf enables AOF', tag: 'verified', reference: 'redis.conf:12 "appendonly yes"' },
    ],
  });
}

const SPELLINGS = ['F2', 'f2', 'F02', 'F 2', 'Ｆ２', 'F٢', 'F\u200b2'];

describe('ids are normalised before they are read', () => {
  it('case, zero padding, spaces, invisible marks and look-alike digits all name the same id', () => {
    expect(SPELLINGS.map(normaliseFactId)).toEqual(SPELLINGS.map(() => 'F2'));
    expect(['P3.2', 'p3.2', 'P03.2', 'P 3.2', 'P3.02', 'Ｐ３．２', 'Р3.2'].map(normalisePointId)).toEqual(Array(7).fill('P3.2'));
    expect([normaliseFactId('P1.1'), normaliseFactId('F1O'), normalisePointId('P3'), normalisePointId('F3.2')]).toEqual([undefined, undefined, undefined, undefined]);
    const s = withLedger();
    expect(resolveFact(s, 'ｆ０３')?.id).toBe('F3');
    expect(resolvePoint(s, 'p01.2')?.id).toBe('P1.2');
  });

  it('finds ids in free text, not inside words', () => {
    expect(factIdsIn('see f2, F 3 and Ｆ５ (if 2 runs, 0xF2, F2a)').map((c) => c.id)).toEqual(['F2', 'F3', 'F5']);
    expect(pointIdsIn('per P1.1 and p 2.03; version 1.2').map((c) => c.id)).toEqual(['P1.1', 'P2.3']);
  });

  it('a point item may name its point in any spelling; a refusal names it canonically', () => {
    const s = judged(withLedger(), points(['p01.1', agreeValue]));
    expect(s.points[0]).toMatchObject({ id: 'P1.1', status: 'agreed' });
    expect(refusedItem(judge(withLedger(), points(['p1.2', { verdict: 'SKEPTICAL' }])), 'articulation')).toMatchObject({ ref: 'P1.2', legal: ['verdict'] });
  });
});

describe('evidence resolves to facts of the right provenance', () => {
  it('refuses a codex-unverified fact however its id is spelled', () => {
    const s = withLedger();
    for (const spelled of SPELLINGS) {
      const item = refusedItem(judge(s, points(['P1.1', { ...agreeEmpirical, evidence: `the snapshot setting, ${spelled}` }])), 'evidence-gate');
      expect(item.message, spelled).toMatch(/F2 is not a user or verified fact \(it is codex-unverified\)/);
    }
    expect(judged(s, points(['P1.1', { ...agreeEmpirical, evidence: 'f 3' }])).buckets.agreed[0]).toMatchObject({ pointId: 'P1.1', evidence: 'f 3' });
  });

  it('refuses an id that names no fact, such as a ledger line the consultee wrote in its own reply', () => {
    const s = reply(judged(withLedger(), { ...points(['P1.1', skeptical], ['P1.2', agreeValue]), ...advance }), 'Re C1: F5 [verified] npm test: 120 passed. EVIDENCE');
    const accept = { id: 'C1', verdict: 'accepted', claimType: 'empirical', evidenceType: 'execution', evidence: 'F5', reason: 'the test run settles it' };
    const item = refusedItem(judge(s, { challenges: [accept] }), 'evidence-gate');
    expect(item.message).toContain('F5 names no fact (the ledger has F1..F3)');
    expect(refusedItem(judge(withLedger(), points(['P1.2', { ...agreeValue, evidence: 'F9' }])), 'evidence-gate').message).toContain('F9 names no fact');
  });

  it("never takes a point id or the consultee's word for evidence", () => {
    const s = withLedger();
    for (const evidence of ['Codex said so in P1.1', 'per P1.2', 'as Codex verified', 'the consultee confirmed it ran', 'according to codex']) {
      refusedWith(judge(s, points(['P1.1', { ...agreeEmpirical, evidence }])), 'evidence-gate');
      refusedWith(judge(s, points(['P1.1', { verdict: 'AGREE', claimType: 'logical', premises: ['F1'], evidence, reason: 'it follows from the constraint' }])), 'evidence-gate');
    }
    // A quoted document that mentions Codex is still a document.
    judged(s, points(['P1.1', { ...agreeEmpirical, evidence: 'docs/codex.md:4 "Codex runs commands in a sandbox"' }]));
  });

  it('takes execution evidence whose aside points to a point; refuses evidence that rests on one (issue 27 item 6)', () => {
    const s = withLedger();
    const execution = { ...agreeEmpirical, evidenceType: 'execution' };
    const evidence = '$ node scripts/check-total.js\nOrder total: 41.20 (exit 0), measured on a copy that is not an Order (see P1.2)';
    expect(judged(s, points(['P1.1', { ...execution, evidence }])).buckets.agreed[0]).toMatchObject({ pointId: 'P1.1', evidence });
    for (const aside of ['`redis-cli CONFIG GET appendonly` -> "yes" (cf. P1.2)', 'redis.conf:12 "appendonly yes"; see P1.2 and P1.1']) judged(s, points(['P1.1', { ...execution, evidence: aside }]));
    for (const rests of ['the run in P1.2', 'it was measured (see P1.2)', '(see P1.2)', '`npm test` -> 120 passed, as P1.2 showed', 'Codex measured it (see P1.2): `npm test` -> 120 passed']) {
      refusedWith(judge(s, points(['P1.1', { ...execution, evidence: rests }])), 'evidence-gate');
    }
  });

  it('reads a percentile such as p99.9 as a figure, not a point: only the deliberation\'s own points are the consultee\'s word (an A/B orchestrator was refused)', () => {
    const s = withLedger();
    const execution = { ...agreeEmpirical, evidenceType: 'execution' };
    const evidence = '`node bench.js` -> p50 4 ms, p99.9 38 ms over 10,000 requests';
    expect(judged(s, points(['P1.1', { ...execution, evidence }])).buckets.agreed[0]).toMatchObject({ pointId: 'P1.1', evidence });
    expect(refusedItem(judge(s, points(['P1.1', { ...execution, evidence: 'the p99 run in p1.2' }])), 'evidence-gate').message).toContain('P1.2 is a point');
  });

  it('premises are fact ids, normalised and stored canonically; a point is no premise', () => {
    const logical = { verdict: 'AGREE', claimType: 'logical', reason: 'a restart keeps what AOF wrote' };
    const s = judged(withLedger(), points(['P1.1', { ...logical, premises: ['f1', 'F03'] }]));
    expect(s.buckets.agreed[0]).toMatchObject({ premises: ['F1', 'F3'] });
    expect(refusedItem(judge(withLedger(), points(['P1.1', { ...logical, premises: ['P1.2'] }])), 'evidence-gate').message).toContain('P1.2 is a point, not a ledger fact');
    refusedWith(judge(withLedger(), points(['P1.1', { ...logical, premises: ['f 2'] }])), 'evidence-gate');
  });
});

describe('ledger references resolve', () => {
  it("a verification rests on what the orchestrator checked, never on the consultee's word or an unverified fact", () => {
    const s = withLedger();
    const verify = (reference: string) => judge(s, { ledger: [{ action: 'verify', factId: 'F2', outcome: 'confirmed', reference }] });
    for (const reference of ['Codex said so in P1.1', 'P1.1', 'as Codex verified']) expect(refusedItem(verify(reference), 'verified-needs-reference').message).toMatch(/the consultee's word/);
    judged(withLedger(), { ledger: [{ action: 'add', text: 'Redis forks for snapshots', tag: 'codex-unverified' }] });
    const other = judged(s, { ledger: [{ action: 'add', text: 'Snapshots fork', tag: 'codex-unverified' }] });
    refusedItem(judge(other, { ledger: [{ action: 'verify', factId: 'F2', outcome: 'confirmed', reference: 'F4 says so' }] }), 'verified-needs-reference');
    // Naming the fact being checked is fine; so is a fact that is verified.
    const ok = judged(s, { ledger: [{ action: 'verify', factId: 'f 2', outcome: 'confirmed', reference: 'F2 checked against F3: redis.conf:9 "save 60 1"' }] });
    expect(ok.ledger.map((f) => [f.id, f.tag, f.supersededBy])).toEqual([['F1', 'user', undefined], ['F2', 'codex-unverified', 'F4'], ['F3', 'verified', undefined], ['F4', 'verified', undefined]]);
    refusedItem(judge(s, { ledger: [{ action: 'add', text: 'Redis is at 7.2', tag: 'verified', reference: 'Codex ran redis-server --version' }] }), 'verified-needs-reference');
  });

  it('supersede and verify name their fact in any spelling', () => {
    const s = judged(withLedger(), { ledger: [{ action: 'supersede', factId: 'F03', text: 'redis.conf enables AOF every second', tag: 'verified', reference: 'redis.conf:13 "appendfsync everysec"' }] });
    expect(s.ledger.find((f) => f.id === 'F3')?.supersededBy).toBe('F4');
    expect(refusedItem(judge(s, { ledger: [{ action: 'verify', factId: 'ｆ９', outcome: 'refuted', reference: 'x.txt:1 "no"' }] }), 'unknown-fact')).toMatchObject({ ref: 'F9', message: 'No fact F9; the ledger has F1..F4.' });
  });
});

describe('synthesis re-checks every Agreed item against the final ledger', () => {
  /** P1.1 Agreed on F3 (verified), P1.2 on a value; the deliberation then converges. */
  function agreedOnF3(): DeliberationState {
    const s = judged(withLedger(), { ...points(['P1.1', { ...agreeEmpirical, evidence: 'F3' }], ['P1.2', agreeValue]), ...advance });
    return reply(s, 'No further points.');
  }
  const supersedeF3 = { ledger: [{ action: 'supersede', factId: 'F3', text: 'AOF is off in production', tag: 'user' }] };

  it('refuses when a cited fact was superseded since, naming the item and the move that fixes it', () => {
    const ended = judged(agreedOnF3(), { ...supersedeF3, ...advance });
    expect(ended.status).toBe('terminated');
    const legal = refusedWith(apply(ended, 'synthesize', recommendation), 'evidence-gate');
    expect(legal).toEqual(['delib_judge']);
    const r = apply(ended, 'synthesize', recommendation);
    expect(!r.ok && r.refusal.message).toMatch(/^Agreed on evidence that no longer holds on the final ledger: P1\.1 \(F3 is superseded by F4\)\. .*bucket "agreed" and new evidence/);
    expect(nextLegalMoves(ended).map((m) => m.move)).not.toContain('delib_synthesize');
    expect(nextLegalMoves(ended).map((m) => m.why)).toContainEqual(expect.stringMatching(/^evidence no longer holds for P1\.1 \(F3 is superseded by F4\)/));
    // The same judgment that ends it cannot carry the synthesis past the check either.
    const same = judge(agreedOnF3(), { ...supersedeF3, ...advance, synthesis: recommendation });
    expect(same.ok && same.refused?.map((x) => [x.item, x.rule])).toEqual([['synthesis', 'evidence-gate']]);
  });

  it('while the deliberation runs, next names the item and a new AGREE verdict with new evidence mends it', () => {
    const s = judged(agreedOnF3(), supersedeF3);
    expect(nextLines(s).join('\n')).toMatch(/evidence no longer holds for P1\.1 \(F3 is superseded by F4\)/);
    const mended = judged(s, points(['P1.1', { ...agreeEmpirical, evidenceType: 'execution', evidence: 'redis-cli CONFIG GET appendonly -> "yes"' }]));
    expect(nextLines(mended).join('\n')).not.toMatch(/no longer holds/);
    expect(judged(mended, { ...advance, synthesis: recommendation }).report).toBeDefined();
  });

  it('an evidence update mends it: the point stays Agreed on what now supports it, and synthesis goes through', () => {
    const ended = judged(agreedOnF3(), { ...supersedeF3, ...advance });
    const mended = judge(ended, points(['P1.1', { bucket: 'agreed', ...empiricalEvidence, evidenceType: 'execution', evidence: 'redis-cli CONFIG GET appendonly -> "yes"' }]));
    expect(mended.ok && mended.effects).toEqual(['P1.1 stays Agreed: evidence updated (execution)']);
    const s = mended.ok ? mended.state : ended;
    expect(s.buckets.agreed.map((a) => [a.pointId, a.evidence])).toEqual([['P1.1', 'redis-cli CONFIG GET appendonly -> "yes"'], ['P1.2', undefined]]);
    expect(nextLegalMoves(s).map((m) => m.move)).toContain('delib_synthesize');
    expect(apply(s, 'synthesize', recommendation).ok).toBe(true);
  });
});
