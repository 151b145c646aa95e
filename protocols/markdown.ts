/** Markdown pieces for terminals and issue trackers; every run string goes through `mdText`. */

/** One line of inert Markdown: whitespace collapsed, HTML and Markdown punctuation backslash-escaped. */
export function mdText(value: unknown, max = 600): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : String(value);
  const line = text.replace(/\s+/g, ' ').trim();
  const cut = line.length > max ? `${line.slice(0, max - 1)}…` : line;
  // `_` inside a word never emphasises, so only word-edge underscores are escaped (model_a stays readable).
  return cut.replace(/[\\`*[\]<>|#~&]/g, (c) => `\\${c}`).replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_');
}

/**
 * `mdText` for text that starts a line: a leading `=`, `-`, `+` or `1.` would otherwise make a
 * heading underline, a thematic break or a list item.
 */
export function mdLine(value: unknown, max = 600): string {
  return mdText(value, max).replace(/^[=+-]/, '\\$&').replace(/^(\d+)([.)])/, '$1\\$2');
}

/** Text that may hold paragraphs and lines: each line inert Markdown, kept apart by a hard break. */
export function mdParagraphs(value: string): string {
  return value
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.split('\n').map((line) => mdLine(line, Infinity)).filter(Boolean).join('  \n'))
    .filter(Boolean)
    .join('\n\n');
}

export function mdTable(headers: string[], rows: (string | number | null | undefined)[][]): string {
  const cell = (value: string | number | null | undefined) => (value === null || value === undefined || value === '' ? '–' : String(value));
  return [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

export const mdQuote = (text: string): string => text.split('\n').map((line) => `> ${mdLine(line, 2000)}`).join('\n');

export function mdSection(title: string, body: string): string {
  return `## ${title}\n\n${body.trim() || '_none_'}\n`;
}
