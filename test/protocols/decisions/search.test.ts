import { describe, expect, it } from 'vitest';
import { indexDecisions, MIN_RELEVANCE, parseDecisionRecord, searchLines } from '../../../protocols/decisions/index.js';
import { fixtureRecords } from './fixture.js';

// New questions a team asks months later, in other words than the record's title, and the record
// (or records: a superseded one and its successor) that bears on each.
const RELATED: [string, string[]][] = [
  ['Should we replace Kafka with a managed message queue for our background jobs and domain events?', ['0017', '0005']],
  ['How should the new mobile app log users in: OpenID Connect or long-lived API keys?', ['0006']],
  ['Should sessions move back from cookies to a server-side store like Redis?', ['0031', '0007']],
  ['How do we version the breaking changes in the public REST API for v3?', ['0008']],
  ['Is it time to split the monorepo into one repository per service?', ['0009']],
  ['Which tool should we adopt to trace slow requests across services?', ['0016']],
  ['Should we move our services from ECS Fargate to a serverless platform like Lambda?', ['0021']],
  ["How should each tenant's data be kept separate in the database?", ['0023']],
  ['Should we switch subscription billing from Stripe to Paddle?', ['0025']],
  ['How do we translate the user interface into German and Japanese?', ['0026']],
  ['Where should user-uploaded profile pictures be stored?', ['0015']],
  ['Which framework should run our browser end-to-end tests?', ['0020']],
  ['Which message broker should process our background work?', ['0005', '0017']],
  ['How do we keep customers from seeing each other’s invoices?', ['0023']],
];

// Questions on subjects no record touches, some sharing common words with them ("data", "team", "service").
const UNRELATED = [
  'What colour should we paint the office kitchen?',
  "Which restaurant should host the team's summer party?",
  'Should the marketing newsletter go out on Tuesdays or Thursdays?',
  'How many vacation days should new employees get?',
  'Should our data science team write notebooks in Python or R?',
  'Which laptop should new developers get, a MacBook or a ThinkPad?',
  'Which cloud provider should host the new analytics service?',
  'How do we measure customer satisfaction after support calls?',
  'Should our team write more unit tests for the data pipeline?',
];

describe('decision search over a folder of 35 records', () => {
  const records = fixtureRecords();
  const index = indexDecisions(records);

  it('the folder is a real one: 35 numbered records in four templates, superseded and deprecated ones among them', () => {
    expect(records).toHaveLength(35);
    expect(records.filter((r) => r.supersededBy).map((r) => `${r.id}->${r.supersededBy}`).sort()).toEqual(['0004->0021', '0005->0017', '0007->0031']);
  });

  it.each(RELATED)('%s finds its record among the top 3', (question, expected) => {
    const found = index.search(question).hits.map((hit) => hit.record.id);
    expect(found.length).toBeLessThanOrEqual(3);
    for (const id of expected) expect(found, `${id} for ${question}`).toContain(id);
    expect(found[0]).toBe(expected[0]);
  });

  it.each(UNRELATED)('%s finds nothing above the threshold', (question) => {
    expect(index.search(question, 35).hits).toEqual([]);
  });

  it('a one-word question needs its one word, and a question of stop words finds nothing', () => {
    expect(index.search('Kafka').hits.map((hit) => hit.record.id)).toContain('0017');
    expect(index.search('Should we use it or not?').hits).toEqual([]);
  });

  it('every hit shares two terms with the question and clears the relevance threshold; none falls below it', () => {
    for (const [question] of RELATED) {
      for (const hit of index.search(question, 35).hits) {
        expect(hit.matched.length).toBeGreaterThanOrEqual(2);
        expect(hit.relevance).toBeGreaterThanOrEqual(MIN_RELEVANCE);
      }
    }
  });

  it('a search shows which record stands: a superseded one names its successor', () => {
    const search = index.search('Should sessions move back from cookies to a server-side store like Redis?');
    expect(searchLines(search, 'q', { folder: 'docs/adr', records })).toEqual([
      '0031  Keep sessions in signed, encrypted cookies  (2024-01-15, accepted, supersedes 0007)',
      '0007  Keep user sessions in Redis  (2021-08-12, superseded by 0031)',
    ]);
  });

  it('names two standing records that answer the same question as possible contradictions, and never a record and its successor', () => {
    const search = index.search('Do we need a second database engine for the product catalog?');
    expect(search.hits.map((hit) => hit.record.id)).toEqual(expect.arrayContaining(['0032', '0002']));
    expect(search.conflicts).toEqual([['0002', '0032']]);
    expect(searchLines(search, 'q', { folder: 'docs/adr', records }).at(-1)).toMatch(/^0002 and 0032 both stand and answer the same question: they may contradict/);
    // 0031 supersedes 0007, 0017 supersedes 0005: related, but one stands.
    expect(index.search('Should sessions move back from cookies to a server-side store like Redis?').conflicts).toEqual([]);
    expect(index.search('Which message broker should process our background work?').conflicts).toEqual([]);
  });

  it('two standing records are no contradiction when one says it supersedes the other, though the old status was never changed', () => {
    const record = (file: string, title: string, extra = '') =>
      parseDecisionRecord(file, `---\nstatus: accepted\n---\n\n# ${title}\n${extra}\n## Context and Problem Statement\n\nWhere should user sessions live between requests?\n`);
    const redis = record('0001-keep-sessions-in-redis.md', 'Keep sessions in Redis');
    const cookies = record('0002-keep-sessions-in-cookies.md', 'Keep sessions in cookies', '\nSupersedes [ADR-0001](0001-keep-sessions-in-redis.md).\n');
    const unlinked = record('0002-keep-sessions-in-cookies.md', 'Keep sessions in cookies');
    const question = 'Where should user sessions live: Redis or cookies?';
    expect(indexDecisions([redis, cookies].filter((r) => r !== undefined)).search(question).conflicts).toEqual([]);
    expect(indexDecisions([redis, unlinked].filter((r) => r !== undefined)).search(question).conflicts).toEqual([['0001', '0002']]);
  });

  it('says plainly when nothing is related', () => {
    const question = 'What colour should we paint the office kitchen?';
    expect(searchLines(index.search(question), question, { folder: 'docs/adr', records })).toEqual([`No decision record in docs/adr is related to "${question}" (35 searched).`]);
  });

  it('works in a folder of one record', () => {
    const only = [parseDecisionRecord('0001-keep-sessions-in-redis.md', '# Keep sessions in Redis\n\n* Status: accepted\n\nSessions expire after 8 hours.\n')].filter((r) => r !== undefined);
    const one = indexDecisions(only);
    expect(one.search('Should sessions live in Redis or in cookies?').hits.map((hit) => hit.record.id)).toEqual(['0001']);
    expect(one.search('Which restaurant should host the summer party?').hits).toEqual([]);
  });
});
