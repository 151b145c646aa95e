import { describe, expect, it } from 'vitest';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { advance, judge, judged, points, recommendation, refusedWith, reply, reportOf, skeptical, briefOf, withTwoPoints } from './helpers.js';

const deduction = { verdict: 'AGREE', claimType: 'logical', reason: 'two writes without a transaction leave a gap' };

/**
 * Facts: F1 user, F2 verified, F3 codex-unverified, F4 superseded (by F5), F6 refuted, F7 a revision,
 * all on the ledger before P1.1 and P1.2 are judged.
 */
function withFacts(): DeliberationState {
  return judged(withTwoPoints({ constraints: ['Jobs are written by the web app'] }), {
    ledger: [
      { action: 'add', text: 'The worker commits to Postgres then publishes to Redis', tag: 'verified', reference: 'worker.ts:40 "await db.commit(); await redis.xadd"' },
      { action: 'add', text: 'Redis publish can fail after a commit', tag: 'codex-unverified' },
      { action: 'add', text: 'Publishing is retried', tag: 'user' },
      { action: 'supersede', factId: 'F4', text: 'Publishing is not retried', tag: 'user' },
      { action: 'add', text: 'Redis runs on the same host', tag: 'codex-unverified' },
      { action: 'verify', factId: 'F6', outcome: 'refuted', reference: 'inventory.md:3 "redis: separate host"' },
      { action: 'add', text: 'P1.2: revising my view', tag: 'revision', justification: 'new numbers arrived' },
    ],
  });
}

describe('logical claims', () => {
  it('reach Agreed as deductions from active user or verified facts', () => {
    const s = judged(withFacts(), points(['P1.1', { ...deduction, premises: ['F1', 'F2'] }]));
    expect(s.buckets.agreed[0]).toMatchObject({ pointId: 'P1.1', claimType: 'logical', evidenceType: 'deduction', premises: ['F1', 'F2'] });
  });

  it('refuses premises that are not active user or verified facts', () => {
    const s = withFacts();
    for (const bad of ['F3', 'F4', 'F6', 'F7', 'F99']) {
      const legal = refusedWith(judge(s, points(['P1.1', { ...deduction, premises: ['F1', bad] }])), 'evidence-gate');
      expect(legal, bad).toEqual(['verdict']);
    }
    const r = judge(s, points(['P1.1', { ...deduction, premises: ['F3'] }]));
    expect(r.ok && r.refused?.[0]?.message).toMatch(/F3 is not .*verify/);
  });

  it('needs at least one premise', () => {
    refusedWith(judge(withFacts(), points(['P1.1', deduction])), 'evidence-gate');
  });

  it('counts facts cited by id in the evidence as premises, under the same rule', () => {
    const s = judged(withFacts(), points(['P1.1', { ...deduction, evidence: 'follows from F1 and F2' }]));
    expect(s.buckets.agreed[0]).toMatchObject({ evidenceType: 'deduction', premises: ['F1', 'F2'] });
    refusedWith(judge(withFacts(), points(['P1.1', { ...deduction, premises: ['F1'], evidence: 'and F3 says the rest' }])), 'evidence-gate');
  });

  it('a codex-unverified fact becomes a premise once verified', () => {
    const s = judged(withFacts(), {
      ledger: [{ action: 'verify', factId: 'F3', outcome: 'confirmed', reference: 'chaos test: publish failed after commit' }],
      ...points(['P1.1', { ...deduction, premises: ['F2', 'F8'] }]),
    });
    expect(s.ledger.find((f) => f.id === 'F8')).toMatchObject({ tag: 'verified', supersedes: 'F3' });
    expect(s.buckets.agreed[0]?.premises).toEqual(['F2', 'F8']);
  });

  it('hold for an accepted defense too, and the report names the premises', () => {
    let s = judged(withFacts(), { ...points(['P1.1', skeptical], ['P1.2', { verdict: 'AGREE', claimType: 'value', reason: 'simplicity matters for a small team' }]), ...advance });
    s = reply(s, 'Re C1: it follows from F1 and F2. INFERENCE');
    const accepted = { id: 'C1', verdict: 'accepted', claimType: 'logical', reason: 'the defense derives it from the two facts' };
    refusedWith(judge(s, { challenges: [{ ...accepted, premises: ['F3'] }] }), 'evidence-gate');
    s = judged(s, { challenges: [{ ...accepted, premises: ['F1', 'F2'] }], ...advance });
    expect(s.buckets.agreed.find((a) => a.pointId === 'P1.1')).toMatchObject({ claimType: 'logical', evidenceType: 'deduction', premises: ['F1', 'F2'] });
    s = judged(reply(s, 'No further points.'), { ...advance, synthesis: recommendation });
    expect(s.termination?.reason).toBe('convergence');
    expect(briefOf(s).turnsOn[0]).toBe('Redis supports persistence. docs say RDB snapshots. — follows from what the user said "Jobs are written by the web app"; and the orchestrator verified "The worker commits to Postgres then publishes to Redis". It held up against an objection.');
    // The premises are cited by id; the ledger appendix states them.
    const md = reportOf(s);
    expect(md).toMatch(/\*\*P1\.1\*\* .*\n {2}Logical claim, from F1, F2\b/);
    expect(md.slice(md.indexOf('## LEDGER'))).toContain('The worker commits to Postgres then publishes to Redis');
    expect(md.slice(0, md.indexOf('## LEDGER'))).not.toContain('The worker commits to Postgres then publishes to Redis');
  });
});
