/**
 * A decision record as a team keeps it: a Markdown file named after its number (0007-title.md,
 * adr-0007-title.md, 007_title.md). Read from the templates found in the wild: MADR 3 and 4 (YAML
 * front matter with `status` and `date`), MADR 2 (bullets `* Status:` and `* Date:` under the
 * title) and adr-tools ("# 7. Title", a `Date:` line, a `## Status` section whose first line is the
 * status and whose "Supersedes [...]" lines link the records it replaced).
 */

export interface DecisionRecord {
  number: number;
  /** The number as shown: four digits (0007). */
  id: string;
  /** The file name in its folder. */
  file: string;
  title: string;
  date?: string;
  /** As written ("accepted", "Superseded by [ADR-0031](0031-...)"). */
  status: string;
  /** The record that replaced this one, when its status says so. */
  supersededBy?: string;
  /** The records this one says it replaces. */
  supersedes: string[];
  /** The deliberation parley wrote this record from. */
  deliberation?: string;
  /** The text the search reads: everything but the front matter. */
  body: string;
  /** The context section (MADR's "Context and Problem Statement", adr-tools' "Context"): the question the record answers. */
  context: string;
  /** Which line of the file holds the status (0-based), when the file has one parley can edit. */
  statusLine?: number;
}

/** The four-digit form of a record number. */
export const recordId = (n: number): string => String(n).padStart(4, '0');

/** A record's number from its file name, or nothing for a file that is no record (README.md, template.md). */
export function recordNumber(file: string): number | undefined {
  const match = /^(?:adr[-_ ]?)?(\d{1,6})(?:[-_. ]|\.md$)/i.exec(file);
  return match && /\.(md|markdown)$/i.test(file) ? Number(match[1]) : undefined;
}

/** The record numbers a piece of status text names: link targets first (0005-x.md), else ADR-5, else bare numbers. */
export function numbersIn(text: string): string[] {
  const linked = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => recordNumber(m[1]?.split('/').pop() ?? '')).filter((n) => n !== undefined);
  const named = linked.length ? linked : [...text.matchAll(/\bADR[-_ ]?(\d{1,6})\b/gi)].map((m) => Number(m[1]));
  const found = named.length ? named : [...text.matchAll(/(?<![\w.-])(\d{1,6})\b/g)].map((m) => Number(m[1]));
  return [...new Set(found.map(recordId))];
}

const unquote = (value: string): string => value.trim().replace(/^(['"])(.*)\1$/, '$2').trim();
const DATE = /\b(\d{4}-\d{2}-\d{2})\b/;

interface FrontMatter {
  fields: Map<string, { value: string; line: number }>;
  /** The first line after it. */
  end: number;
}

function frontMatter(lines: string[]): FrontMatter {
  const fields = new Map<string, { value: string; line: number }>();
  if (lines[0]?.trim() !== '---') return { fields, end: 0 };
  const close = lines.findIndex((line, i) => i > 0 && line.trim() === '---');
  if (close < 0) return { fields, end: 0 };
  for (let i = 1; i < close; i++) {
    const match = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(lines[i] ?? '');
    if (match?.[1]) fields.set(match[1].toLowerCase(), { value: unquote(match[2] ?? ''), line: i });
  }
  return { fields, end: close + 1 };
}

const labelPattern = (label: string) => new RegExp(`^\\s*(?:[*-]\\s+)?(?:\\*\\*)?${label}(?:\\*\\*)?\\s*:(?:\\*\\*)?\\s*(.+)$`, 'i');
const LABELS = { status: labelPattern('status'), date: labelPattern('date') };

/** "* Status: accepted", "- Date: 2021-03-18", "Date: 2021-03-04": a labelled line of the body. */
function labelled(lines: string[], from: number, label: keyof typeof LABELS): { value: string; line: number } | undefined {
  const pattern = LABELS[label];
  for (let i = from; i < lines.length; i++) {
    const match = pattern.exec(lines[i] ?? '');
    if (match?.[1]) return { value: match[1].trim(), line: i };
  }
  return undefined;
}

/** adr-tools: the lines of the `## Status` section (its first line is the status). */
function statusSection(lines: string[], from: number): { first?: { value: string; line: number }; rest: string[] } {
  const heading = lines.findIndex((line, i) => i >= from && /^#{2,3}\s+status\s*$/i.test(line));
  if (heading < 0) return { rest: [] };
  const section: { value: string; line: number }[] = [];
  for (let i = heading + 1; i < lines.length && !/^#{1,3}\s/.test(lines[i] ?? ''); i++) {
    const value = (lines[i] ?? '').trim();
    if (value) section.push({ value, line: i });
  }
  return { first: section[0], rest: section.slice(1).map((s) => s.value) };
}

function contextOf(lines: string[], from: number): string {
  const heading = lines.findIndex((line, i) => i >= from && /^#{2,3}\s+context\b/i.test(line));
  if (heading < 0) return '';
  const end = lines.findIndex((line, i) => i > heading && /^#{1,3}\s/.test(line));
  return lines.slice(heading + 1, end < 0 ? undefined : end).join('\n').trim();
}

/** The first level-one heading, without adr-tools' "7. " (undefined when there is none). */
export function headingTitle(text: string): string | undefined {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const heading = lines.slice(frontMatter(lines).end).find((line) => /^#\s+\S/.test(line));
  return heading?.replace(/^#\s+/, '').replace(/^(?:ADR[-_ ]?)?\d{1,6}[.:]?\s+/i, '').trim() || undefined;
}

function titleOf(text: string, file: string): string {
  return headingTitle(text) ?? file.replace(/\.(md|markdown)$/i, '').replace(/^(?:adr[-_ ]?)?\d+[-_. ]*/i, '').replace(/[-_]+/g, ' ');
}

/** Reads one record; a file whose name carries no number is no record (undefined). */
export function parseDecisionRecord(file: string, text: string): DecisionRecord | undefined {
  const number = recordNumber(file);
  if (number === undefined) return undefined;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const front = frontMatter(lines);
  const section = statusSection(lines, front.end);
  const status = front.fields.get('status') ?? labelled(lines, front.end, 'status') ?? section.first;
  const date = front.fields.get('date')?.value ?? labelled(lines, front.end, 'date')?.value;
  const statusText = status?.value ?? 'unknown';
  const supersededBy = /^superseded\s+by\b/i.test(statusText) ? numbersIn(statusText.replace(/^superseded\s+by/i, ''))[0] : undefined;
  const supersedes = [
    ...(front.fields.get('supersedes') ? numbersIn(front.fields.get('supersedes')?.value ?? '') : []),
    ...lines
      .slice(front.end)
      .filter((line) => /^\s*(?:[*-]\s+)?supersedes\b/i.test(line))
      .flatMap((line) => numbersIn(line.replace(/^\s*(?:[*-]\s+)?supersedes/i, ''))),
  ];
  const deliberation = /^Deliberation ([A-Za-z0-9][A-Za-z0-9._-]*) \(/m.exec(text)?.[1];
  return {
    number,
    id: recordId(number),
    file,
    title: titleOf(text, file),
    ...(date && DATE.test(date) ? { date: DATE.exec(date)?.[1] } : {}),
    status: statusText,
    ...(supersededBy ? { supersededBy } : {}),
    supersedes: [...new Set(supersedes)].filter((id) => id !== recordId(number)),
    ...(deliberation ? { deliberation } : {}),
    body: lines.slice(front.end).join('\n'),
    context: contextOf(lines, front.end),
    ...(status ? { statusLine: status.line } : {}),
  };
}

/** Whether a record still holds: accepted (or proposed, awaiting review), not superseded, rejected or deprecated. */
export function stands(record: DecisionRecord): boolean {
  return /^(accepted|approved|adopted|proposed)\b/i.test(record.status.trim());
}

/** The records in number order; a number two files share is kept once each (both are shown). */
export const byNumber = (records: DecisionRecord[]): DecisionRecord[] => [...records].sort((a, b) => a.number - b.number || a.file.localeCompare(b.file));
