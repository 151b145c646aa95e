import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markSuperseded, parseDecisionRecord, withSupersedes, type DecisionRecord } from '../../../protocols/decisions/index.js';
import { FIXTURE_FOLDER, fixtureRecords } from './fixture.js';

const NEW = { id: '0036', file: '0036-move-events-to-nats.md', title: 'Move events to NATS' };

function fixture(id: string): { record: DecisionRecord; text: string } {
  const record = fixtureRecords().find((r) => r.id === id);
  if (!record) throw new Error(`no ${id}`);
  return { record, text: readFileSync(join(FIXTURE_FOLDER, record.file), 'utf8') };
}

/** The lines that differ between two texts. */
function changedLines(before: string, after: string): [string, string][] {
  const a = before.split('\n');
  const b = after.split('\n');
  expect(b.length).toBe(a.length);
  return a.map((line, i) => [line, b[i] ?? ''] as [string, string]).filter(([x, y]) => x !== y);
}

describe('marking a record superseded edits its status line and nothing else', () => {
  it.each([
    ['adr-tools', '0017', 'Accepted', 'Superseded by [36. Move events to NATS](0036-move-events-to-nats.md)'],
    ['MADR 2', '0002', '* Status: accepted', '* Status: superseded by [ADR-0036](0036-move-events-to-nats.md)'],
    ['MADR 3', '0009', 'status: accepted', 'status: superseded by ADR-0036'],
    ['MADR 4 (proposed)', '0022', 'status: proposed', 'status: superseded by ADR-0036'],
  ])('%s: %s', (_form, id, before, after) => {
    const { record, text } = fixture(id);
    const outcome = markSuperseded(text, record, NEW);
    if (!('text' in outcome)) throw new Error(JSON.stringify(outcome));
    expect(changedLines(text, outcome.text)).toEqual([[before, after]]);
    const reread = parseDecisionRecord(record.file, outcome.text);
    expect(reread).toMatchObject({ supersededBy: '0036', title: record.title, date: record.date });
  });

  it('keeps quotes in front matter and CRLF line ends', () => {
    const text = '---\r\nstatus: "accepted"\r\ndate: 2024-06-01\r\n---\r\n\r\n# Use NATS\r\n';
    const record = parseDecisionRecord('0040-use-nats.md', text);
    if (!record) throw new Error('unparsed');
    expect(markSuperseded(text, record, NEW)).toEqual({ text: text.replace('status: "accepted"', 'status: "superseded by ADR-0036"') });
  });

  it.each([
    ['deprecated', '0035', /its status reads "Deprecated", not accepted or proposed/],
    ['rejected', '0034', /its status reads "rejected"/],
    ['superseded by another record', '0007', /its status reads "superseded by \[ADR-0031\]/],
  ])('leaves a %s record as it is and says why', (_why, id, reason) => {
    const { record, text } = fixture(id);
    const outcome = markSuperseded(text, record, NEW);
    expect(outcome).toEqual({ problem: expect.stringMatching(reason) });
    expect((outcome as { problem: string }).problem).toMatch(new RegExp(`^ADR-${id} \\(${record.file}\\) was left as it is: .*; if ADR-0036 replaces it, change its status by hand$`));
  });

  it('a record already superseded by the same one is already linked; a status changed by hand since it was read is left', () => {
    const { record, text } = fixture('0007');
    expect(markSuperseded(text, record, { ...NEW, id: '0031' })).toEqual({ already: true });
    const read = fixture('0002');
    const edited = read.text.replace('* Status: accepted', '* Status: accepted, under review by the data team');
    expect(markSuperseded(edited, read.record, NEW)).toEqual({ problem: expect.stringContaining('its status line changed since it was read') });
  });

  it('a record with no status line is left', () => {
    const text = '# Use NATS\n\nWe use NATS.\n';
    const record = parseDecisionRecord('0040-use-nats.md', text);
    if (!record) throw new Error('unparsed');
    expect(markSuperseded(text, record, NEW)).toEqual({ problem: expect.stringContaining('not accepted or proposed') });
  });
});

describe('the new record names what it supersedes', () => {
  it('under its title, as links the parser reads back', () => {
    const old = ['0017', '0005'].map((id) => fixture(id).record);
    const markdown = '---\nstatus: accepted\ndate: 2025-01-02\n---\n\n# Move events to NATS\n\n## Context and Problem Statement\n\nKafka costs too much.\n';
    const text = withSupersedes(markdown, old);
    expect(text).toContain('# Move events to NATS\n\nSupersedes [ADR-0017: Stream domain events through Kafka](0017-stream-domain-events-through-kafka.md) and [ADR-0005: Use RabbitMQ for background jobs](0005-use-rabbitmq-for-background-jobs.md).\n\n## Context');
    expect(parseDecisionRecord('0036-move-events-to-nats.md', text)).toMatchObject({ supersedes: ['0017', '0005'], status: 'accepted', title: 'Move events to NATS' });
    expect(withSupersedes(markdown, [])).toBe(markdown);
  });
});
