import { describe, expect, it } from 'vitest';
import { sentences } from '../../../protocols/argumentation/core/queries.js';
import { advance, agreeValue, judge, judged, points, withTwoPoints } from './helpers.js';

const ONE = [
  'It ignores managed options (e.g. Amazon MemoryDB) that remove the ops cost.',
  'It assumes one store, i.e. Postgres for both jobs and state.',
  'Redis vs. Memcached is moot here.',
  'Throughput drops to 1.5k ops/s under churn.',
  'Redis 7.2.4 changed the license to RSAL v2.0 last year.',
  'It relies on v. 7.2 semantics.',
  'As J. R. Smith showed in 2019, the lock queue degrades.',
  'It costs approx. 5 ms per call, which is too much.',
  'It ignores churn (see Fig. 3) and retries.',
  'It ignores an outage of the U.S. East region, where most users are.',
  'Peak load comes at 9 a.m. Monday, not at night.',
  'The U.K. team runs it.',
  // Issue 27 item 5: an elision inside SQL, and a code span, end no sentence.
  "The sweeper runs SELECT ... FOR UPDATE SKIP LOCKED every 30 s, so a crashed worker's jobs wait up to 30 s.",
  'It runs `SELECT id FROM jobs. FOR UPDATE` on every poll.',
];

describe('sentences', () => {
  it('does not split at abbreviations, decimals, version numbers, initials, an elision or a code span', () => {
    for (const text of ONE) expect(sentences(text), text).toEqual([text]);
  });

  it('splits two real sentences', () => {
    expect(sentences('It is wrong. Also slow.')).toEqual(['It is wrong.', 'Also slow.']);
    expect(sentences('It ignores failover, e.g. Sentinel. The rest holds.')).toEqual(['It ignores failover, e.g. Sentinel.', 'The rest holds.']);
    expect(sentences('Does it scale? No.')).toEqual(['Does it scale?', 'No.']);
    expect(sentences('It fails in the U.S. East region. Nobody measured it.')).toEqual(['It fails in the U.S. East region.', 'Nobody measured it.']);
  });
});

describe('articulation of a flaw', () => {
  it('accepts a one-sentence flaw with abbreviations', () => {
    const s = judged(withTwoPoints(), points(['P1.1', { verdict: 'SKEPTICAL', flaw: ONE[0] }]));
    expect(s.challenges[0]?.objection).toBe(ONE[0]);
  });

  it('accepts a flaw naming a dotted initialism (the U.S. East region)', () => {
    const flaw = 'It ignores an outage of the U.S. East region, where most users are.';
    expect(judged(withTwoPoints(), points(['P1.1', { verdict: 'SKEPTICAL', flaw }])).challenges[0]?.objection).toBe(flaw);
  });

  it('accepts a one-sentence flaw that elides SQL with "..." and holds the advance back for nothing (issue 27 item 5)', () => {
    const flaw = 'The sweeper runs SELECT ... FOR UPDATE SKIP LOCKED every 30 s, so a crashed worker\'s jobs wait up to 30 s.';
    expect(judged(withTwoPoints(), { ...points(['P1.1', { verdict: 'SKEPTICAL', flaw }], ['P1.2', agreeValue]), ...advance }).n).toBe(2);
  });

  it('still splits a sentence that trails off before the next one', () => {
    expect(sentences('It waits... Then it fails.')).toEqual(['It waits...', 'Then it fails.']);
  });

  it('refuses two sentences and quotes the ones it found', () => {
    const r = judge(withTwoPoints(), points(['P1.1', { verdict: 'SKEPTICAL', flaw: 'Persistence is off by default, e.g. in 7.2. Snapshots cost I/O.' }]));
    expect(r.ok && r.refused?.[0]).toMatchObject({ rule: 'articulation', message: expect.stringContaining('Found 2: "Persistence is off by default, e.g. in 7.2." "Snapshots cost I/O."') });
  });
});
