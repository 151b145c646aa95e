import { basename } from 'node:path';
import { mdSection, mdTable, mdText } from '../markdown.js';
import { esc, fmt, table } from './html.js';
import type { SweepCell, SweepTable } from './sweep-source.js';

/** Counts read better without decimals; shares and divergences keep three. */
const DIGITS: Record<string, number> = { tokens: 0, proposed: 1, submitted: 1, dropped: 1, rounds_run: 2, agents_changed: 2, cost_usd: 4 };

/** A cell's mean, and its 95% interval when summary.json has one; a missing mean is a dash, never 0. */
export function meanText(cell: SweepCell, measure: string): string {
  const digits = DIGITS[measure] ?? 3;
  const mean = cell.means[measure] ?? null;
  if (mean === null) return '–';
  const ci = cell.ci95[measure];
  // An interval of no width (one run, or runs that agree) says nothing the mean does not.
  return ci && ci[0] !== ci[1] ? `${fmt(mean, digits)} [${fmt(ci[0], digits)}, ${fmt(ci[1], digits)}]` : fmt(mean, digits);
}

const title = (sweep: SweepTable) => `Sweep${sweep.name ? `: ${sweep.name}` : ''}${sweep.protocol ? ` (${sweep.protocol})` : ''}`;

const note = (sweep: SweepTable) =>
  [
    `${sweep.cells.length} cell(s) by ${sweep.parameters.join(', ') || 'no parameter'}; each value is the mean over the cell's runs`,
    sweep.cells.some((cell) => Object.values(cell.ci95).some((ci) => ci && ci[0] !== ci[1])) ? ', with its 95% interval in brackets' : '',
    sweep.unfinished.length ? `. ${sweep.unfinished.length} unfinished run(s) are not counted` : '',
    '.',
  ].join('');

/** One column per cell of the sweep, named by the cell's parameters. */
export function sweepHtml(sweep: SweepTable): string {
  const rows = [['runs', ...sweep.cells.map((cell) => cell.runs)], ...sweep.measures.map((measure) => [measure, ...sweep.cells.map((cell) => meanText(cell, measure))])];
  return [
    `<h2>${esc(title(sweep))}</h2>`,
    // The folder by its name only: a report is shared, and an absolute path says where its author keeps files.
    `<p class="muted">${esc(note(sweep))} Folder: ${esc(basename(sweep.dir))}.</p>`,
    table(['measure', ...sweep.cells.map((cell) => cell.label)], rows, [], 'compare'),
  ].join('\n');
}

export function sweepMarkdown(sweep: SweepTable): string {
  const rows = [['runs', ...sweep.cells.map((cell) => cell.runs)], ...sweep.measures.map((measure) => [mdText(measure), ...sweep.cells.map((cell) => meanText(cell, measure))])];
  return mdSection(mdText(title(sweep)), `${mdText(note(sweep))}\n\n${mdTable(['measure', ...sweep.cells.map((cell) => mdText(cell.label))], rows)}`);
}
