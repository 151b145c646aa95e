import { recordId, stands, type DecisionRecord } from './record.js';

/**
 * A new record's place in its folder, and the links between a record and those it supersedes, both
 * ways: the new record says "Supersedes [ADR-0007 ...](0007-....md)" under its title, and the old
 * one's status line, and nothing else of it, becomes "superseded by ADR-0012" in the form its
 * template uses.
 */

const SLUG_CHARS = 60;

/** The next number in a folder: one after the highest it holds. */
export const nextNumber = (records: DecisionRecord[]): number => Math.max(0, ...records.map((r) => r.number)) + 1;

/** `0012-use-kafka-for-events.md`: the four-digit number and the title in kebab case. */
export function recordFileName(number: number, title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const longer = slug ? `${slug}-${word}` : word;
    if (longer.length > SLUG_CHARS) break;
    slug = longer;
  }
  return `${recordId(number)}-${slug || 'decision'}.md`;
}

const linkText = (text: string): string => text.replace(/([\\[\]])/g, '\\$1');

/** The new record with "Supersedes ..." under its title (a record with no title gets it on top). */
export function withSupersedes(markdown: string, old: DecisionRecord[]): string {
  if (!old.length) return markdown;
  const links = old.map((r) => `[ADR-${r.id}: ${linkText(r.title)}](${encodeURI(r.file)})`).join(' and ');
  const line = `Supersedes ${links}.`;
  const lines = markdown.split('\n');
  const title = lines.findIndex((l) => /^#\s+\S/.test(l));
  return title < 0 ? `${line}\n\n${markdown}` : [...lines.slice(0, title + 1), '', line, ...lines.slice(title + 1)].join('\n');
}

export type SupersedeOutcome = { text: string } | { already: true } | { problem: string };

/**
 * `old` (read from `text`) marked as superseded by `by`. Only a status that still says the record
 * stands (accepted or proposed) on the line it was read from is changed: a status the user set by
 * hand to anything else is theirs, and the outcome says why it was left.
 */
export function markSuperseded(text: string, old: DecisionRecord, by: { id: string; file: string; title: string }): SupersedeOutcome {
  if (old.supersededBy === by.id) return { already: true };
  const leave = (why: string): SupersedeOutcome => ({ problem: `ADR-${old.id} (${old.file}) was left as it is: ${why}; if ADR-${by.id} replaces it, change its status by hand` });
  if (!stands(old)) return leave(`its status reads "${old.status}", not accepted or proposed`);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(eol);
  const line = old.statusLine === undefined ? undefined : lines[old.statusLine];
  if (line === undefined || old.statusLine === undefined) return leave('it has no status line parley can find');
  const link = `[ADR-${by.id}](${encodeURI(by.file)})`;
  const labelled = /^(\s*(?:[*-]\s+)?(?:\*\*)?status(?:\*\*)?\s*:(?:\*\*)?\s*)(['"]?)(.*?)\2\s*$/i.exec(line);
  let edited: string;
  if (labelled) {
    // Front matter is YAML: a plain value, as MADR's template writes it. A bullet is Markdown: a link.
    const frontMatter = !/^\s*[*-]\s/.test(line);
    if (labelled[3]?.trim() !== old.status) return leave('its status line changed since it was read');
    edited = `${labelled[1]}${labelled[2]}${frontMatter ? `superseded by ADR-${by.id}` : `superseded by ${link}`}${labelled[2]}`;
  } else {
    if (line.trim() !== old.status) return leave('its status line changed since it was read');
    // adr-tools: the status section's first line, in its own words.
    edited = `Superseded by [${Number(by.id)}. ${linkText(by.title)}](${encodeURI(by.file)})`;
  }
  lines[old.statusLine] = edited;
  return { text: lines.join(eol) };
}
