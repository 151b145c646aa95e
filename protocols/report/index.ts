/**
 * Run reports: one self-contained offline HTML page (graphs by Graphviz WASM, charts by Vega-Lite,
 * inline SVG, no scripts) or a Markdown summary, for an argumentation state, a dialogic run or a
 * debate transcript; and side-by-side comparisons of several (a sweep: one column per cell). Every run string is escaped.
 */
import { deliberationMarkdown } from '../argumentation/report/report-markdown.js';
import { argumentationHtml } from './argumentation-html.js';
import { compareHtml, compareMarkdown } from './compare.js';
import { dialogicHtml } from './dialogic-html.js';
import { dialogicMarkdown } from './dialogic-md.js';
import { debateHtml } from './debate-html.js';
import { debateMarkdown } from './debate-md.js';
import type { ReportSource } from './source.js';

export { detectKind, loadReportSource, sourceFromData, type ReportKind, type ReportSource } from './source.js';
export { compareHtml, compareMarkdown };
export { answerText, majorityText } from './debate-turns.js';
export { esc } from './html.js';
export { mdText } from '../markdown.js';

export function reportHtml(source: ReportSource): Promise<string> {
  if (source.kind === 'argumentation') return argumentationHtml(source.state, source.audit);
  if (source.kind === 'dialogic') return dialogicHtml(source.run, source.baseline, source.audit);
  if (source.kind === 'sweep') return compareHtml([source]);
  return debateHtml(source.transcript);
}

export function reportMarkdown(source: ReportSource): string {
  if (source.kind === 'argumentation') return deliberationMarkdown(source.state, { record: true, audit: source.audit });
  if (source.kind === 'dialogic') return dialogicMarkdown(source.run, source.baseline, source.audit);
  if (source.kind === 'sweep') return compareMarkdown([source]);
  return debateMarkdown(source.transcript);
}
