import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/** Vega-Lite charts rendered to SVG strings in Node (no browser, no canvas, no network). */

export const FONT = 'system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif';

const CONFIG = {
  font: FONT,
  background: 'white',
  view: { stroke: '#dde2ea' },
  axis: { labelColor: '#5b6475', titleColor: '#1d2433', gridColor: '#edf0f5', domainColor: '#c7ceda', tickColor: '#c7ceda', labelFontSize: 11, titleFontSize: 12 },
  legend: { labelColor: '#1d2433', titleColor: '#5b6475', labelFontSize: 11, titleFontSize: 11, labelLimit: 220 },
  title: { fontSize: 13, fontWeight: 600, anchor: 'start', color: '#1d2433', offset: 8 },
  range: { category: ['#2f5da8', '#d1603d', '#1e7b4a', '#8e44ad', '#b8860b', '#17a2b8', '#c0392b', '#5d6d7e'] },
} as const;

export async function vegaLiteSvg(spec: TopLevelSpec): Promise<string> {
  const compiled = compile({ ...spec, config: { ...CONFIG, ...(spec.config ?? {}) } } as TopLevelSpec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return svg.replace(/^<svg /, '<svg role="img" ');
  } finally {
    view.finalize();
  }
}

const DASHES = [[1, 0], [7, 4], [2, 3], [10, 3, 2, 3], [4, 4]];
/** One legend for colour and dash, each entry a stroke sample; a run's whole name (a sweep cell's parameters) fits. */
const LINE_LEGEND = { orient: 'bottom', direction: 'vertical', symbolType: 'stroke', symbolStrokeWidth: 2, symbolSize: 260, labelLimit: 420 };

export interface SeriesPoint {
  x: number;
  y: number | null;
  series: string;
}

/**
 * Series with the same value at every x, named as one ("a = b"): drawn apart, the later line would
 * hide the earlier one exactly, and the reader could not tell it was there.
 */
export function mergeIdenticalSeries(points: SeriesPoint[]): SeriesPoint[] {
  const bySeries = new Map<string, SeriesPoint[]>();
  for (const point of points) bySeries.set(point.series, [...(bySeries.get(point.series) ?? []), point]);
  const key = (list: SeriesPoint[]) => JSON.stringify([...list].sort((a, b) => a.x - b.x).map((p) => [p.x, p.y]));
  const names = new Map<string, string[]>();
  for (const [series, list] of bySeries) names.set(key(list), [...(names.get(key(list)) ?? []), series]);
  return [...names.values()].flatMap((same) => bySeries.get(same[0]!)!.map((point) => ({ ...point, series: same.join(' = ') })));
}

/** One measure per round (or cycle), one line per series; a null breaks the line there (a gap, not a 0). */
export function lineChart(input: SeriesPoint[], options: { title: string; x: string; y: string; width?: number; yDomain?: [number, number] }): Promise<string> {
  const points = mergeIdenticalSeries(input);
  const multi = new Set(input.map((p) => p.series)).size > 1;
  return vegaLiteSvg({
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: options.title,
    width: options.width ?? 250,
    height: 160,
    data: { values: points },
    mark: { type: 'line', point: { size: 45, filled: true }, strokeWidth: 2, invalid: 'break-paths-show-domains' },
    encoding: {
      x: { field: 'x', type: 'quantitative', title: options.x, scale: { nice: false, zero: false }, axis: { values: [...new Set(points.map((p) => p.x))], format: 'd' } },
      y: { field: 'y', type: 'quantitative', title: options.y, ...(options.yDomain && { scale: { domain: options.yDomain } }) },
      color: multi ? { field: 'series', type: 'nominal', title: null, legend: LINE_LEGEND } : { value: '#2f5da8' },
      // Each line its own dash too: where two runs agree for a few rounds, both stay visible.
      ...(multi && { strokeDash: { field: 'series', type: 'nominal', title: null, scale: { range: DASHES }, legend: LINE_LEGEND } }),
      tooltip: [{ field: 'series' }, { field: 'x' }, { field: 'y' }],
    },
  } as TopLevelSpec);
}

export interface BarDatum {
  category: string;
  group: string;
  value: number;
}

/**
 * Grouped or stacked bars: categories on x, groups as colours (in the order of their first datum).
 * Stacked, the first group sits at the bottom and the legend stands at the right listing the groups
 * top to bottom, as the stack shows them; grouped, the legend below reads left to right as the bars do.
 */
export function barChart(data: BarDatum[], options: { title: string; x: string; y: string; stack?: boolean; width?: number; colors?: Record<string, string> }): Promise<string> {
  const groups = [...new Set(data.map((d) => d.group))];
  const categories = new Set(data.map((d) => d.category)).size;
  const legendGroups = options.stack ? [...groups].reverse() : groups;
  // Long group names (a sweep cell's parameters) are listed one a line rather than cut short.
  const legend = options.stack ? { orient: 'right' } : groups.some((g) => g.length > 16) ? { orient: 'bottom', direction: 'vertical' } : { orient: 'bottom' };
  const scale = options.colors ? { domain: legendGroups, range: legendGroups.map((g) => options.colors?.[g] ?? '#5d6d7e') } : { domain: legendGroups };
  // Each category gets room for its whole label as Vega measures text without a canvas (0.8 em a
  // character), so labels are neither cut nor overlap; past 200 px a label is cut with an ellipsis.
  const longest = Math.max(0, ...data.map((d) => d.category.length));
  const step = Math.max(options.stack ? 64 : Math.max(56, 18 * groups.length + 16), Math.min(200, Math.ceil(longest * 0.8 * 11) + 14));
  // Without a width the bars keep a fixed step, so one or two categories do not become slabs; a
  // stack of few categories still gets a width worth its legend beside it.
  const width = options.width ?? (options.stack ? Math.max(260, categories * step) : undefined);
  const labelLimit = (width ? Math.floor(width / Math.max(1, categories)) : step) - 6;
  return vegaLiteSvg({
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: options.title,
    width: width ?? { step },
    height: 170,
    data: { values: data.map((d) => ({ ...d, stackOrder: groups.indexOf(d.group) })) },
    mark: { type: 'bar', cornerRadiusEnd: 2, ...(options.stack && { width: { band: 0.6 } }) },
    encoding: {
      x: { field: 'category', type: 'ordinal', title: options.x, sort: null, axis: { labelAngle: 0, labelLimit } },
      y: { field: 'value', type: 'quantitative', title: options.y, stack: options.stack ? 'zero' : null },
      ...(options.stack ? { order: { field: 'stackOrder', type: 'quantitative', sort: 'ascending' } } : { xOffset: { field: 'group', sort: groups } }),
      color: { field: 'group', type: 'nominal', title: null, scale, legend },
      tooltip: [{ field: 'category' }, { field: 'group' }, { field: 'value' }],
    },
  } as TopLevelSpec);
}
