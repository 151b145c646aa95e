import { stands, type DecisionRecord } from './record.js';
import type { DecisionSearch } from './search.js';

/**
 * How records are shown: the same words on the command line, in MCP resources and in delib_start's
 * `related`. A superseded record names the one that stands instead.
 */

/** The status in a word or two: "accepted", "superseded by 0031" (links and Markdown dropped). */
export function statusText(record: DecisionRecord): string {
  if (record.supersededBy) return `superseded by ${record.supersededBy}`;
  const plain = record.status.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_`]/g, '').trim();
  return plain.charAt(0).toLowerCase() + plain.slice(1);
}

/** A record as a tool result shows it. */
export const recordView = (record: DecisionRecord, folder: string) => ({
  number: record.id,
  title: record.title,
  ...(record.date ? { date: record.date } : {}),
  status: statusText(record),
  ...(record.supersedes.length ? { supersedes: record.supersedes } : {}),
  file: `${folder}/${record.file}`,
});

/** `0017  Stream domain events through Kafka  (2022-09-14, accepted, supersedes 0005)` */
export const recordLine = (record: DecisionRecord): string =>
  `${record.id}  ${record.title}  (${[record.date, statusText(record), record.supersedes.length ? `supersedes ${record.supersedes.join(', ')}` : ''].filter(Boolean).join(', ')})`;

/** Standing records that may contradict, each pair named once. */
export const conflictLines = (search: Pick<DecisionSearch, 'conflicts'>): string[] =>
  search.conflicts.map(([a, b]) => `${a} and ${b} both stand and answer the same question: they may contradict (parley does not judge which holds; a decision that settles it can supersede one)`);

/** A search as lines: each related record on its own, then the possible contradictions; or a plain sentence when nothing is related. */
export function searchLines(search: DecisionSearch, question: string, folder: { folder: string; records: DecisionRecord[] }): string[] {
  if (!search.hits.length) return [`No decision record in ${folder.folder} is related to ${JSON.stringify(question)} (${folder.records.length} searched).`];
  return [...search.hits.map((hit) => recordLine(hit.record)), ...conflictLines(search)];
}

/** Every record, one line each, standing or not. */
export function listLines(folder: { folder: string; records: DecisionRecord[] }): string[] {
  if (!folder.records.length) return [`${folder.folder} holds no numbered decision record yet.`];
  const standing = folder.records.filter(stands).length;
  return [...folder.records.map(recordLine), `${folder.records.length} records in ${folder.folder}, ${standing} standing.`];
}
