import { Graphviz } from '@hpcc-js/wasm-graphviz';
import { lineWidth } from './text-width.js';

let loading: Promise<Graphviz> | undefined;

/** Graphviz (WebAssembly) is loaded once per process, on first use. */
function graphviz(): Promise<Graphviz> {
  loading ??= Graphviz.load();
  return loading;
}

/** A DOT double-quoted string: quotes and backslashes escaped, newlines as DOT line breaks, other control characters dropped, length capped. */
export function dotString(text: string, max = 400): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u0009\u000b-\u001f\u007f]+/g, ' ').slice(0, max);
  return `"${clean.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** Word-wraps a label for a node, joined with DOT's centred line break (`\n` inside a quoted string). */
export function wrapLabel(text: string, width = 28, maxLines = 4): string {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  const lines: string[] = [];
  let current = '';
  for (const word of words) {
    if (current && (current + ' ' + word).length > width) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
    if (lines.length === maxLines) break;
  }
  if (lines.length < maxLines && current) lines.push(current);
  const joined = lines.map((line) => (line.length > width + 8 ? `${line.slice(0, width + 6)}…` : line));
  const last = joined[maxLines - 1];
  if (last !== undefined && !last.endsWith('…') && words.join(' ').length > lines.join(' ').length) joined[maxLines - 1] = `${last} …`;
  return joined.join('\n');
}

/**
 * A box node's minimum `width` (inches) that holds its widest line as a browser may draw it (see
 * text-width.ts), plus Graphviz's side margins (0.11 in each) and a little air.
 */
export function boxWidth(label: string, fontSize: number): string {
  const widest = Math.max(0, ...label.split('\n').map((line) => lineWidth(line, fontSize)));
  return ((widest + 2 * 8 + 6) / 72).toFixed(2);
}

/** DOT -> inline SVG (no XML prolog, doctype or comments, so it can sit inside HTML). */
export async function dotToSvg(dot: string): Promise<string> {
  const svg = (await graphviz()).dot(dot, 'svg');
  return svg
    .replace(/<\?xml[^>]*\?>/g, '')
    .replace(/<!DOCTYPE[^>]*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim();
}
