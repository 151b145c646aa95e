import { describe, expect, it } from 'vitest';
import { parseDecisionRecord, recordFileName, stands } from '../../../protocols/decisions/index.js';
import { numbersIn, recordNumber } from '../../../protocols/decisions/record.js';
import { fixtureRecords } from './fixture.js';

const byId = (id: string) => {
  const record = fixtureRecords().find((r) => r.id === id);
  if (!record) throw new Error(`no ${id}`);
  return record;
};

describe('reading decision records as teams write them', () => {
  it('adr-tools: "# 17. Title", a Date line, the status section and its Supersedes link', () => {
    expect(byId('0017')).toMatchObject({ number: 17, title: 'Stream domain events through Kafka', date: '2022-09-14', status: 'Accepted', supersedes: ['0005'] });
    expect(byId('0005')).toMatchObject({ title: 'Use RabbitMQ for background jobs', supersededBy: '0017', supersedes: [] });
    expect(stands(byId('0005'))).toBe(false);
    expect(byId('0035')).toMatchObject({ status: 'Deprecated' });
    expect(stands(byId('0035'))).toBe(false);
  });

  it('MADR 2: the title, then "* Status:" and "* Date:" bullets; "superseded by [ADR-0031](...)"', () => {
    expect(byId('0002')).toMatchObject({ title: 'Use PostgreSQL as the primary database', date: '2021-03-18', status: 'accepted', supersedes: [] });
    expect(byId('0007')).toMatchObject({ title: 'Keep user sessions in Redis', supersededBy: '0031' });
  });

  it('MADR 3 and 4: front matter with status and date; "Supersedes [ADR-0007](...)" under the title', () => {
    expect(byId('0009')).toMatchObject({ title: 'Keep all services in one monorepo with npm workspaces', date: '2022-01-15', status: 'accepted' });
    expect(byId('0031')).toMatchObject({ date: '2024-01-15', status: 'accepted', supersedes: ['0007'] });
    expect(byId('0022').status).toBe('proposed');
    expect(byId('0034').status).toBe('rejected');
    expect(byId('0031').context).toMatch(/^Since logins moved to OpenID Connect/);
  });

  it('file names: a number first (0007-, adr-0007-, 007_), Markdown only; README and the template are no records', () => {
    expect(['0007-x.md', 'adr-0007-x.md', 'ADR_7_x.md', '007_x.md', '7.md'].map(recordNumber)).toEqual([7, 7, 7, 7, 7]);
    expect(['README.md', 'template.md', '0007-x.txt', 'x-0007.md'].map(recordNumber)).toEqual([undefined, undefined, undefined, undefined]);
    expect(parseDecisionRecord('README.md', '# Decisions')).toBeUndefined();
  });

  it('finds the numbers a status names: link targets, then ADR-n, then bare numbers', () => {
    expect(numbersIn(' [21. Run services on ECS](0021-run.md)')).toEqual(['0021']);
    expect(numbersIn(' ADR-0031')).toEqual(['0031']);
    expect(numbersIn(' 12')).toEqual(['0012']);
    expect(numbersIn(' [ADR-0004](0004-a.md) and [ADR-0007](../adr/0007-b.md)')).toEqual(['0004', '0007']);
  });

  it('a record without title, status or date still reads: its title from the file name, its status unknown', () => {
    const record = parseDecisionRecord('0040-use-nats.md', 'We use NATS.\r\n');
    expect(record).toMatchObject({ id: '0040', title: 'use nats', status: 'unknown', supersedes: [] });
    expect(record && stands(record)).toBe(false);
  });

  it('quoted front matter values and CRLF line ends read the same', () => {
    const record = parseDecisionRecord('0041-a.md', '---\r\nstatus: "accepted"\r\ndate: \'2024-06-01\'\r\n---\r\n\r\n# Title here\r\n');
    expect(record).toMatchObject({ title: 'Title here', status: 'accepted', date: '2024-06-01', statusLine: 1 });
  });

  it('names a new record by its number and its title in kebab case, at most 60 characters of it', () => {
    expect(recordFileName(12, 'Should we move off Kafka?')).toBe('0012-should-we-move-off-kafka.md');
    expect(recordFileName(3, 'Crème brûlée: the café’s API!')).toBe('0003-creme-brulee-the-cafe-s-api.md');
    expect(recordFileName(7, '???')).toBe('0007-decision.md');
    expect(recordFileName(8, 'word '.repeat(40)).length).toBeLessThanOrEqual('0008-'.length + 60 + '.md'.length);
  });
});
