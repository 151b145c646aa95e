/**
 * The HTML page every report is written into: one self-contained file, inline CSS, no scripts,
 * and a Content-Security-Policy that forbids scripts and every network fetch, so a report opened
 * from disk can neither run model output nor call home.
 */
import { visibleControls } from '../../schemas/visible-controls.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an HTML text node or a quoted attribute; control characters show as their escapes. */
export function esc(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : String(value);
  return visibleControls(text).replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

export const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src 'none'; script-src 'none'; base-uri 'none'; form-action 'none'";

const CSS = `
:root { color-scheme: light; --ink: #1d2433; --muted: #5b6475; --line: #dde2ea; --panel: #f6f8fb; --accent: #2f5da8;
  --agree: #1e7b4a; --dismiss: #a33a3a; --unres: #9a6a00; --ne: #6b6f7a; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; }
main { max-width: 1180px; margin: 0 auto; padding: 28px 32px 64px; }
header.report { border-bottom: 3px solid var(--accent); padding-bottom: 14px; margin-bottom: 24px; }
header.report .kind { text-transform: uppercase; letter-spacing: .08em; font-size: 12px; color: var(--accent); font-weight: 600; }
h1 { font-size: 24px; margin: 4px 0 8px; line-height: 1.3; overflow-wrap: anywhere; }
h2 { font-size: 19px; margin: 36px 0 12px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 16px; margin: 20px 0 8px; }
p, li { overflow-wrap: anywhere; }
.meta { color: var(--muted); font-size: 14px; display: flex; flex-wrap: wrap; gap: 6px 18px; }
.meta b { color: var(--ink); font-weight: 600; }
.cards { display: grid; grid-template-columns: repeat(var(--wide), minmax(0, 1fr)); gap: 10px; margin: 14px 0; }
@media (max-width: 1180px) { .cards { grid-template-columns: repeat(var(--medium), minmax(0, 1fr)); } }
@media (max-width: 560px) { .cards { grid-template-columns: repeat(var(--narrow), minmax(0, 1fr)); } }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.card .v { font-size: 21px; font-weight: 650; overflow-wrap: anywhere; }
.card .l { font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.card .l .sym { text-transform: none; letter-spacing: 0; font-size: 13px; }
table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 6px 10px; border-bottom: 1px solid var(--line); overflow-wrap: break-word; }
th { background: var(--panel); font-weight: 600; font-size: 13px; color: var(--muted); white-space: nowrap; overflow-wrap: normal; }
.wide { overflow-x: auto; max-width: 100%; }
table.compare { table-layout: fixed; font-size: 13px; }
table.compare th { white-space: normal; overflow-wrap: anywhere; }
table.compare th:first-child, table.compare td:first-child { width: 190px; }
table.compare td.num { white-space: normal; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.tag { display: inline-block; font-size: 12px; padding: 1px 8px; border-radius: 10px; background: #e8edf5; color: #34405a; white-space: nowrap; }
.tag.agreed, .tag.KEEP, .tag.accepted, .tag.support, .tag.CONSISTENT { background: #dff3e7; color: var(--agree); }
.tag.dismissed, .tag.DROP, .tag.dropped, .tag.rebut, .tag.REFUTED { background: #f8e1e1; color: var(--dismiss); }
.tag.unresolved, .tag.REFINE, .tag.counter_revised, .tag.concede { background: #fbefd5; color: var(--unres); }
.tag.extend { background: #e1ebfb; color: var(--accent); }
.bucket { border-left: 4px solid var(--line); padding: 2px 0 2px 14px; margin: 12px 0 20px; }
.bucket.agreed { border-color: var(--agree); } .bucket.dismissed { border-color: var(--dismiss); }
.bucket.unresolved { border-color: var(--unres); } .bucket.not-evaluated { border-color: var(--ne); }
.muted { color: var(--muted); }
.small { font-size: 12px; }
.long { overflow-wrap: anywhere; }
.spec > span { display: inline-block; overflow-wrap: anywhere; }
p.legend { font-size: 13px; color: var(--muted); margin: -8px 0 16px; }
p.legend b { color: var(--ink); font-weight: 600; }
.figure { margin: 10px 0 22px; overflow-x: auto; }
.figure svg { max-width: 100%; height: auto; display: block; }
.figure.graph svg { margin: 0 auto; }
.grid2 { display: grid; grid-template-columns: 1fr 1fr; gap: 20px; }
@media (max-width: 860px) { .grid2 { grid-template-columns: 1fr; } th, th.num { white-space: normal; } }
@media (max-width: 720px) {
  main { padding: 20px 16px 48px; }
  th, td { padding: 6px 6px; }
  table.compare th:first-child, table.compare td:first-child { width: 120px; }
}
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(330px, 1fr)); gap: 10px 24px; align-items: start; }
details { border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px; margin: 6px 0; }
details summary { cursor: pointer; font-weight: 600; }
details.turn { font-size: 14px; }
details.turn summary { font-weight: 500; }
details.turn dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 14px; margin: 8px 0; }
details.turn dt { color: var(--muted); }
details.turn dd { margin: 0; overflow-wrap: anywhere; white-space: pre-wrap; }
blockquote { margin: 8px 0; padding: 8px 14px; background: var(--panel); border-left: 4px solid var(--accent); white-space: pre-wrap; overflow-wrap: anywhere; }
.recommendation p { white-space: pre-line; }
.warn { background: #fff4e0; border: 1px solid #f0c36d; padding: 8px 12px; border-radius: 6px; }
footer { margin-top: 48px; color: var(--muted); font-size: 12px; }
`;

export interface PageOptions {
  /** Plain text; escaped here. */
  title: string;
  kind: string;
  /** Trusted HTML built by the report modules (every run string in it already escaped). */
  body: string;
}

export function page({ title, kind, body }: PageOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="parley report">
<title>${esc(`${kind}: ${title}`.slice(0, 160))}</title>
<style>${CSS}</style>
</head>
<body>
<main>
${body}
<footer>Generated by parley report. Self-contained: no scripts, no network.</footer>
</main>
</body>
</html>
`;
}

export function header(kind: string, title: string, meta: [string, unknown][]): string {
  const items = meta.map(([label, value]) => `<span>${esc(label)} <b>${esc(value)}</b></span>`).join('');
  return `<header class="report"><div class="kind">${esc(kind)}</div><h1>${esc(title)}</h1><div class="meta">${items}</div></header>`;
}

/** Most cards a row holds: on a wide screen (at 1,400 px, 8 cards are 130 px each), up to 1,180 px, up to 560 px. */
const CARD_ROW = { wide: 8, medium: 5, narrow: 3 } as const;

/**
 * Stat cards in rows of equal length as far as the count allows (9 cards: 5 and 4), so that no card
 * is left alone on a row of its own. A label is text, or HTML for a symbol that
 * keeps its case (`<span class="sym">s_t</span>`).
 */
export function cards(items: [string | { html: string }, unknown][]): string {
  const columns = (most: number) => Math.ceil(items.length / Math.ceil(items.length / most));
  const style = (Object.keys(CARD_ROW) as (keyof typeof CARD_ROW)[]).map((size) => `--${size}:${columns(CARD_ROW[size])}`).join(';');
  const label = (text: string | { html: string }) => (typeof text === 'string' ? esc(text) : text.html);
  return `<div class="cards" style="${style}">${items.map(([text, value]) => `<div class="card"><div class="v">${esc(typeof value === 'number' ? num(value) : value)}</div><div class="l">${label(text)}</div></div>`).join('')}</div>`;
}

/**
 * A model spec that wraps between its provider and its address, never inside either unless one
 * alone is wider than the line (`openai-compatible:` / `http://127.0.0.1:8000/v1#model`).
 */
export function specHtml(spec: string): string {
  const provider = /^[a-z][a-z0-9-]*:(?!\/\/)/i.exec(spec)?.[0] ?? '';
  const parts = provider && spec.length > provider.length ? [provider, spec.slice(provider.length)] : [spec];
  return `<span class="spec">${parts.map((part) => `<span>${esc(part)}</span>`).join('<wbr>')}</span>`;
}

/** One line under a table or chart saying what its short names measure and on what scale: `[name, meaning]`. */
export function legendLine(entries: [string, string][]): string {
  return `<p class="legend">${entries.map(([name, meaning]) => `<b>${esc(name)}</b> ${esc(meaning)}`).join(' · ')}</p>`;
}

export type Cell = string | number | null | undefined | { html: string };

const cellHtml = (cell: Cell): string => (cell !== null && typeof cell === 'object' ? cell.html : typeof cell === 'number' ? num(cell) : esc(cell ?? '–'));

/** A table; numeric columns (by index) are right-aligned. Cells are escaped unless given as {html}; numbers get thousands separators. */
export function table(headers: string[], rows: Cell[][], numeric: number[] = [], className?: string): string {
  const cls = (index: number) => (numeric.includes(index) ? ' class="num"' : '');
  const head = headers.map((h, i) => `<th${cls(i)}>${esc(h)}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((cell, i) => `<td${cls(i)}>${cellHtml(cell)}</td>`).join('')}</tr>`).join('\n');
  // In a scroll box of its own: a table too wide for a narrow screen scrolls there, never the page.
  return `<div class="wide"><table${className ? ` class="${esc(className)}"` : ''}><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

/** A small coloured label; the class is restricted to a safe token. */
export function tag(text: unknown, kind?: string): { html: string } {
  const cls = (kind ?? String(text)).replace(/[^A-Za-z0-9_-]/g, '');
  return { html: `<span class="tag ${cls}">${esc(text)}</span>` };
}

/** A chart or graph with an optional caption; a graph (`kind: 'graph'`) is centred. */
export function figure(svg: string, caption?: string, kind?: 'graph'): string {
  return `<div class="figure${kind ? ` ${kind}` : ''}">${caption ? `<h3>${esc(caption)}</h3>` : ''}${svg}</div>`;
}

const missing = (value: number | null | undefined): value is null | undefined => value === null || value === undefined || !Number.isFinite(value);
const formats = new Map<number, Intl.NumberFormat>();
const formatter = (digits: number) => formats.get(digits) ?? formats.set(digits, new Intl.NumberFormat('en-US', { maximumFractionDigits: digits })).get(digits)!;

/** A number with thousands separators (12,345.5); a missing value is a dash, never 0. */
export const fmt = (value: number | null | undefined, digits = 3): string => (missing(value) ? '–' : formatter(digits).format(Number(value.toFixed(digits)) || 0));
export const num = (value: number | null | undefined): string => fmt(value, 6);
export const pct = (value: number | null | undefined): string => (missing(value) ? '–' : `${(value * 100).toFixed(1)}%`);
