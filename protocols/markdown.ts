/** Markdown pieces for terminals and issue trackers; every run string goes through `mdText`. */

/** One line of inert Markdown: whitespace collapsed, HTML and Markdown punctuation backslash-escaped. */
export function mdText(value: unknown, max = 600): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : String(value);
  const line = text.replace(/\s+/g, ' ').trim();
  const cut = line.length > max ? `${line.slice(0, max - 1)}…` : line;
  // `_` inside a word never emphasises, so only word-edge underscores are escaped (model_a stays readable).
  return cut.replace(/[\\`*[\]<>|#~&]/g, (c) => `\\${c}`).replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_');
}

export function mdTable(headers: string[], rows: (string | number | null | undefined)[][]): string {
  const cell = (value: string | number | null | undefined) => (value === null || value === undefined || value === '' ? '–' : String(value));
  return [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

export const mdQuote = (text: string): string => text.split('\n').map((line) => `> ${mdText(line, 2000)}`).join('\n');

export function mdSection(title: string, body: string): string {
  return `## ${title}\n\n${body.trim() || '_none_'}\n`;
}
