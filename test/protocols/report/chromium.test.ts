import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareHtml, loadReportSource, reportHtml, type ReportSource } from '../../../protocols/report/index.js';
import { launchChromium, type LaunchedChromium } from './browser.js';
import { argumentationRun, debateRun, dialogicRun } from './fixtures.js';
import { PHENOMENAI_RUN } from '../../doubles/interop.js';

const SHOTS = resolve('test-output/report');

let work: string;
let chromium: LaunchedChromium | undefined;
let browser: Browser;
const pages: Record<string, string> = {};

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-report-web-'));
  await mkdir(SHOTS, { recursive: true });
  const sources: Record<string, ReportSource> = {
    argumentation: await loadReportSource((await argumentationRun(work)).statePath),
    dialogic: await loadReportSource(await dialogicRun(work)),
    debate: await loadReportSource(await debateRun(work)),
    foreign: await loadReportSource(PHENOMENAI_RUN),
  };
  for (const [name, source] of Object.entries(sources)) {
    pages[name] = join(work, `${name}.html`);
    await writeFile(pages[name], await reportHtml(source));
  }
  pages.compare = join(work, 'compare.html');
  await writeFile(pages.compare, await compareHtml([sources.debate!, { ...sources.debate!, label: 'copy.json' }, sources.dialogic!, sources.foreign!, sources.argumentation!]));
  chromium = await launchChromium({ width: 1280, height: 900 });
  browser = chromium.browser;
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await rm(work, { recursive: true, force: true });
});

interface Loaded {
  page: Page;
  problems: string[];
  requests: string[];
}

async function open(name: string): Promise<Loaded> {
  const context = browser.contexts()[0]!;
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(pathToFileURL(pages[name]!).href, { waitUntil: 'load' });
  return { page, problems, requests };
}

async function finish({ page }: Loaded, name: string): Promise<void> {
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  expect((await stat(path)).size).toBeGreaterThan(10_000);
  await page.close();
}

/** Charts: Vega SVGs with drawn marks; graphs: Graphviz SVGs with nodes and edges. Both must have a visible size. */
async function expectCharts(page: Page, minimum: number): Promise<void> {
  const charts = page.locator('svg.marks');
  expect(await charts.count()).toBeGreaterThanOrEqual(minimum);
  for (const chart of await charts.all()) {
    const box = await chart.boundingBox();
    expect(box!.width).toBeGreaterThan(150);
    expect(box!.height).toBeGreaterThan(100);
    expect(await chart.locator('.mark-line path, .mark-rect path, .mark-symbol path, .mark-rule line').count()).toBeGreaterThan(0);
  }
}

async function expectInert(page: Page): Promise<void> {
  expect(await page.evaluate('window.__pwned')).toBeUndefined();
  expect(await page.locator('script, img, main style, body style').count()).toBe(0);
  expect(await page.locator('body').isVisible()).toBe(true);
  expect(await page.locator('main h1').isVisible()).toBe(true);
}

describe('reports in real headless Chromium', () => {
  it('argumentation: loads cleanly, the challenge timeline and points chart are drawn, model text is inert', async () => {
    const loaded = await open('argumentation');
    expect(loaded.problems).toEqual([]);
    expect(loaded.requests.every((url) => url.startsWith('file:'))).toBe(true);
    await expectInert(loaded.page);
    await expectCharts(loaded.page, 2);
    expect(await loaded.page.locator('h1').textContent()).toContain('<script>window.__pwned = 1</script>');
    await finish(loaded, 'argumentation');
  });

  it('dialogic: survival and cycle charts are drawn, the hostile term shows as text', async () => {
    const loaded = await open('dialogic');
    expect(loaded.problems).toEqual([]);
    await expectInert(loaded.page);
    await expectCharts(loaded.page, 3);
    expect(await loaded.page.getByText('K <script>window.__pwned=3</script></style>').count()).toBeGreaterThan(0);
    await finish(loaded, 'dialogic');
    const foreign = await open('foreign');
    expect(foreign.problems).toEqual([]);
    await expectCharts(foreign.page, 3);
    await finish(foreign, 'dialogic-foreign');
  });

  it('debate: one graph per round with nodes and stance-coloured edges, and the per-round charts', async () => {
    const loaded = await open('debate');
    expect(loaded.problems).toEqual([]);
    await expectInert(loaded.page);
    // The whole debate's influence graph first, then one per round.
    const graphs = loaded.page.locator('svg:has(g.graph)');
    expect(await graphs.count()).toBe(3);
    for (const graph of await graphs.all()) {
      expect(await graph.locator('g.node').count()).toBeGreaterThanOrEqual(4);
      const box = await graph.boundingBox();
      expect(box!.width * box!.height).toBeGreaterThan(200 * 200);
    }
    const roundTwo = graphs.nth(2);
    expect(await roundTwo.locator('g.edge path[stroke="#c0392b"]').count()).toBe(2);
    expect(await roundTwo.locator('g.edge path[stroke="#d68910"]').count()).toBe(2);
    await expectCharts(loaded.page, 6);
    await finish(loaded, 'debate');
  });

  it('comparison: one table per protocol and charts side by side', async () => {
    const loaded = await open('compare');
    expect(loaded.problems).toEqual([]);
    await expectInert(loaded.page);
    expect(await loaded.page.locator('table').count()).toBe(3);
    await expectCharts(loaded.page, 4);
    await finish(loaded, 'compare');
  });
});
