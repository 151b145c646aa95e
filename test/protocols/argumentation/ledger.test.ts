import { describe, expect, it } from 'vitest';
import { judge, judged, refusedWith, start } from './helpers.js';

const ledger = (...items: object[]) => ({ ledger: items });

describe('ledger provenance', () => {
  it('records user constraints as user facts at start', () => {
    const s = start({ constraints: ['Budget is 0 EUR', 'Must run on ARM'] });
    expect(s.ledger.map((f) => [f.id, f.tag, f.text])).toEqual([
      ['F1', 'user', 'Budget is 0 EUR'],
      ['F2', 'user', 'Must run on ARM'],
    ]);
  });

  it('refuses a verified fact without a reference and a revision without a justification', () => {
    const s = start();
    refusedWith(judge(s, ledger({ action: 'add', text: 'Redis 7 is installed', tag: 'verified' })), 'verified-needs-reference');
    refusedWith(judge(s, ledger({ action: 'add', text: 'changed my mind', tag: 'revision' })), 'revision-needs-justification');
    const ok = judged(s, ledger({ action: 'add', text: 'Redis 7 is installed', tag: 'verified', reference: '`redis-server --version` -> v=7.2.4' }));
    expect(ok.ledger[0]).toMatchObject({ id: 'F1', tag: 'verified', reference: expect.stringContaining('7.2.4') });
  });

  it('refuses oversized text and asks for a path:lines reference', () => {
    refusedWith(judge(start(), ledger({ action: 'add', text: 'x'.repeat(2001), tag: 'codex-unverified' })), 'oversized-fact');
  });

  it('never lets codex-unverified supersede user or verified, and only user supersedes user', () => {
    let s = start({ constraints: ['Latency under 5 ms'] });
    s = judged(s, ledger({ action: 'add', text: 'p99 is 2 ms', tag: 'verified', reference: 'bench.txt:12 "p99 2ms"' }));
    refusedWith(judge(s, ledger({ action: 'supersede', factId: 'F1', text: 'Latency under 50 ms', tag: 'codex-unverified' })), 'provenance-integrity');
    refusedWith(judge(s, ledger({ action: 'supersede', factId: 'F2', text: 'p99 is 9 ms', tag: 'codex-unverified' })), 'provenance-integrity');
    refusedWith(judge(s, ledger({ action: 'supersede', factId: 'F1', text: 'Latency under 9 ms', tag: 'verified', reference: 'x:1' })), 'provenance-integrity');
    const next = judged(s, ledger({ action: 'supersede', factId: 'F1', text: 'Latency under 10 ms', tag: 'user' }));
    expect(next.ledger[0]?.supersededBy).toBe('F3');
    expect(next.ledger[2]).toMatchObject({ supersedes: 'F1', tag: 'user' });
    refusedWith(judge(next, ledger({ action: 'supersede', factId: 'F1', text: 'again', tag: 'user' })), 'fact-not-active');
  });

  it('verifies by appending a verified fact: tags never change in place', () => {
    let s = judged(start(), ledger({ action: 'add', text: 'Memcached has no persistence', tag: 'codex-unverified' }));
    s = judged(s, ledger({ action: 'verify', factId: 'F1', outcome: 'confirmed', reference: 'memcached wiki: "no persistence"' }));
    expect(s.ledger.map((f) => [f.id, f.tag, f.supersededBy])).toEqual([
      ['F1', 'codex-unverified', 'F2'],
      ['F2', 'verified', undefined],
    ]);
    refusedWith(judge(s, ledger({ action: 'verify', factId: 'F1', outcome: 'confirmed', reference: 'x' })), 'fact-not-active');
    refusedWith(judge(s, ledger({ action: 'verify', factId: 'F2', outcome: 'confirmed', reference: 'x' })), 'nothing-to-verify');
  });

  it('splits a partially verified fact into a verified part and an unverified rest', () => {
    let s = judged(start(), ledger({ action: 'add', text: 'Redis is single-threaded and uses 2x the memory', tag: 'codex-unverified' }));
    refusedWith(judge(s, ledger({ action: 'verify', factId: 'F1', outcome: 'partial', reference: 'r' })), 'partial-needs-split');
    s = judged(s, ledger({ action: 'verify', factId: 'F1', outcome: 'partial', reference: 'redis docs: "single-threaded"', verifiedText: 'Redis executes commands on one thread', unverifiedRest: 'Redis uses 2x the memory' }));
    expect(s.ledger.slice(1).map((f) => [f.id, f.tag, f.splitFrom])).toEqual([
      ['F2', 'verified', 'F1'],
      ['F3', 'codex-unverified', 'F1'],
    ]);
  });

  it('refutes a fact and refuses to verify a user fact', () => {
    let s = judged(start({ constraints: ['c'] }), ledger({ action: 'add', text: 'claim', tag: 'codex-unverified' }));
    refusedWith(judge(s, ledger({ action: 'verify', factId: 'F1', outcome: 'confirmed', reference: 'x' })), 'nothing-to-verify');
    s = judged(s, ledger({ action: 'verify', factId: 'F2', outcome: 'refuted', reference: 'test run: fails' }));
    expect(s.ledger[1]?.refuted).toBe(true);
  });

  it('refuses every ledger move in quick mode', () => {
    refusedWith(judge(start({ mode: 'quick' }), ledger({ action: 'add', text: 't', tag: 'user' })), 'quick-mode');
  });

  it('does not mutate the input state', () => {
    const s = start();
    const before = JSON.stringify(s);
    judged(s, ledger({ action: 'add', text: 'a', tag: 'codex-unverified' }));
    expect(JSON.stringify(s)).toBe(before);
  });
});
