import { describe, expect, it } from 'vitest';
import { advance, judge, judged, points, refusedWith, reply, start } from './helpers.js';

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

describe("a judgment's own new facts are cited safely (issue 27, item 10)", () => {
  /** F1-F7 are the user's; the reply's P1.1 awaits a verdict, so the judgment's new facts are F8 on. */
  const seven = () => reply(start({ mode: 'standard', constraints: ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'] }), '1. Redis keeps the cache across a restart: AOF is on. EVIDENCE: redis.conf:12');
  const p99 = { action: 'add', text: 'p99 is 2 ms under load', tag: 'verified' }; // no reference: refused
  const version = { action: 'add', text: 'Redis 7.2.4 is installed', tag: 'verified', reference: '`redis-server --version` -> v=7.2.4' };
  const aof = { action: 'add', text: 'AOF is on in the running config', tag: 'verified', reference: 'redis-cli CONFIG GET appendonly -> yes' };
  const agreedOn = (evidence: string) => ({ verdict: 'AGREE', claimType: 'empirical', evidenceType: 'execution', evidence, reason: 'the running config has AOF on' });

  it('ids predicted (F8-F10) are not read as the wrong fact when an item before them was refused: the citing item is refused, saying what each id now is', () => {
    // The orchestrator counted F8 (p99), F9 (version), F10 (AOF) and cites F10 for AOF; p99 is refused, so AOF became F9.
    const r = judge(seven(), { ledger: [p99, version, aof], ...points(['P1.1', agreedOn('F10: CONFIG GET appendonly -> yes')]) });
    expect(r.ok && r.state.ledger.slice(7).map((f) => [f.id, f.text])).toEqual([
      ['F8', 'Redis 7.2.4 is installed'],
      ['F9', 'AOF is on in the running config'],
    ]);
    expect(r.ok && r.refused?.map((x) => [x.item, x.rule])).toEqual([
      ['ledger[0]', 'verified-needs-reference'],
      ['points[0]', 'fact-ids-shifted'],
    ]);
    expect(r.ok && r.refused?.[1]?.message).toContain('F8 is "Redis 7.2.4 is installed", F9 is "AOF is on in the running config"');
    expect(r.ok && r.state.points[0]?.status).toBe('pending-triage');
    // The same with F9 predicted for the version: before, F9 resolved to the AOF fact and P1.1 stood on it.
    const wrong = judge(seven(), { ledger: [p99, version, aof], ...points(['P1.1', agreedOn('F9 shows v=7.2.4')]) });
    expect(wrong.ok && wrong.state.buckets.agreed).toEqual([]);
  });

  it('a fact added before the first refusal keeps its predicted id', () => {
    const r = judge(seven(), { ledger: [aof, p99], ...points(['P1.1', agreedOn('F8: CONFIG GET appendonly -> yes')]) });
    expect(r.ok && r.refused?.map((x) => x.item)).toEqual(['ledger[1]']);
    expect(r.ok && r.state.buckets.agreed[0]).toMatchObject({ pointId: 'P1.1', evidence: 'F8: CONFIG GET appendonly -> yes' });
  });

  it('a label names the id the fact got, whatever was refused before it; the effects say which', () => {
    const r = judge(seven(), { ledger: [p99, version, { ...aof, label: 'aof' }], ...points(['P1.1', agreedOn('@aof: CONFIG GET appendonly -> yes')]), ...advance });
    expect(r.ok && r.state.buckets.agreed[0]).toMatchObject({ pointId: 'P1.1', evidence: 'F9: CONFIG GET appendonly -> yes' });
    expect(r.ok && r.effects).toContain('@aof is F9');
    // Labels serve as premises too, with or without the @.
    const logical = { verdict: 'AGREE', claimType: 'logical', evidenceType: 'deduction', premises: ['aof', '@version'], reason: 'AOF on a current Redis persists writes' };
    const t = judged(seven(), { ledger: [{ ...version, label: 'version' }, { ...aof, label: 'aof' }], ...points(['P1.1', logical]) });
    expect(t.buckets.agreed[0]?.premises).toEqual(['F9', 'F8']);
    // And in the synthesis the same judgment carries.
    const ended = judged(seven(), { ledger: [{ ...aof, label: 'aof' }], ...points(['P1.1', agreedOn('@aof')]), phase: { trivial: true }, synthesis: { recommendation: 'Keep Redis with AOF on (@aof).', confidence: 'high' } });
    expect(ended.recommendation?.text).toBe('Keep Redis with AOF on (F8).');
  });

  it('an item citing the label of a refused fact is refused with it, never read as another fact', () => {
    const r = judge(seven(), { ledger: [{ ...p99, label: 'p99' }, version], ...points(['P1.1', agreedOn('@p99 under load')]), ...advance });
    expect(r.ok && r.refused?.map((x) => [x.item, x.rule])).toEqual([
      ['ledger[0]', 'verified-needs-reference'],
      ['points[0]', 'cited-fact-refused'],
    ]);
    expect(r.ok && r.refused?.[1]?.message).toContain('@p99 names the fact of ledger[0], which was refused');
    expect(r.ok && r.state.n).toBe(1);
  });

  it('a label is a name, not an id, and names one fact', () => {
    const r = judge(seven(), { ledger: [{ ...version, label: 'F9' }, { ...aof, label: 'run' }, { ...aof, text: 'AOF fsyncs every second', label: 'run' }], ...points(['P1.1', agreedOn('@run: yes')]) });
    // A label given twice names neither fact: the item citing it cannot tell which was meant.
    expect(r.ok && r.refused?.map((x) => [x.item, x.rule])).toEqual([
      ['ledger[0]', 'fact-label'],
      ['ledger[2]', 'fact-label'],
      ['points[0]', 'cited-fact-refused'],
    ]);
  });

  it('a label names its fact in later judgments too, as it now stands; a lone label naming no fact is refused (an A/B mind cited @race a judgment later and it stayed as text)', () => {
    const race = { action: 'add', label: 'race', text: 'The race reproduces: reuse after 7 s idle gets no response with the default server', tag: 'verified', reference: 'race.js on v20.12.2 -> NO RESPONSE; handler ran 1x' };
    let s = judged(seven(), { ledger: [race], ...points(['P1.1', { verdict: 'SKEPTICAL', flaw: 'AOF alone does not keep the cache across a restart.' }]), ...advance });
    s = reply(s, 'Re C1: AOF is replayed at start. EVIDENCE: redis.log:3\n\nNew points:\n\n2. INFERENCE: The race explains the 502s.');
    // Cited the next judgment by the label alone, as the mind did: it is the fact's id.
    const later = judged(s, points(['P2.2', agreedOn('@race')]));
    expect(later.buckets.agreed.find((a) => a.pointId === 'P2.2')?.evidence).toBe('F8');
    // A label nobody gave is refused, not kept as the evidence text.
    const r = judge(s, points(['P2.2', agreedOn('@raec')]));
    expect(r.ok && r.refused?.map((x) => [x.item, x.rule])).toEqual([['points[0]', 'unknown-fact-label']]);
    expect(r.ok && r.refused?.[0]?.message).toContain('(labels in use: @race)');
    // An npm scope in the text is no label: it stays as written.
    expect(judged(s, points(['P2.2', agreedOn('@types/pg 8.11 types rows as any: node_modules/@types/pg/index.d.ts:12')])).buckets.agreed.at(-1)?.evidence).toContain('@types/pg');
    // Replaced, the label names the new version; a second fact cannot take it.
    const newer = judged(s, { ledger: [{ action: 'supersede', factId: 'F8', text: 'The race reproduces on 20.12.2 and 20.20.2', tag: 'verified', reference: 'race.js on both -> NO RESPONSE' }] });
    expect(judged(newer, points(['P2.2', agreedOn('@race')])).buckets.agreed.at(-1)?.evidence).toBe('F9');
    expect(judge(newer, { ledger: [{ ...aof, label: 'race' }] })).toMatchObject({ refused: [{ rule: 'fact-label', message: expect.stringContaining('already names F9') }] });
  });

  it('a file name is not a fact id: "f600.ndjson" in a reference is a file (an A/B mind had every item citing its test files refused)', () => {
    const files = { action: 'add', tag: 'verified', text: 'The unchanged reader fails on a 600 MB file with ERR_STRING_TOO_LONG', reference: 'node --max-old-space-size=12288 reader.js /tmp/nd/f600.ndjson -> Error: Cannot create a string longer than 0x1fffffe8 characters (ERR_STRING_TOO_LONG); f450.ndjson -> 450000 rows' };
    const r = judge(seven(), { ledger: [files], ...points(['P1.1', agreedOn('F8: the 600 MB run, f600.ndjson')]) });
    expect(r.ok && r.refused).toEqual([]);
    expect(r.ok && r.state.ledger.at(-1)).toMatchObject({ id: 'F8', tag: 'verified' });
  });
});
