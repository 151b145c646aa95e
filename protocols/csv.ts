/**
 * parley's one CSV writer (RFC 4180 quoting): a field holding a comma, a double quote, CR or LF is
 * quoted and its quotes doubled; everything else is written as is. Lines end in LF.
 */
export type CsvValue = string | number | boolean | null | undefined | readonly (string | number)[];

/**
 * A number as measures are read: at most 6 decimals, trailing zeros dropped, so float noise
 * (0.6750000000000002) never reaches a CSV; integers as they are.
 */
export function csvNumber(value: number): string {
  return Number.isInteger(value) || !Number.isFinite(value) ? String(value) : String(Number(value.toFixed(6)));
}

/** One field; null and undefined are empty (a missing value, never 0); a list is joined with `|`. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = Array.isArray(value) ? value.map((item) => (typeof item === 'number' ? csvNumber(item) : item)).join('|') : typeof value === 'number' ? csvNumber(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header line and one line per row. */
export function toCsv(header: readonly CsvValue[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\n') + '\n';
}
