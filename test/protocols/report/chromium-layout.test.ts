/** The report pages' layout as a reader sees it, in headless Chromium at 1,400 and 700 px wide. */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareHtml, loadReportSource, reportHtml, type ReportSource } from '../../../protocols/report/index.js';
import { launchChromium, type LaunchedChromium } from './browser.js';
import { argumentationRun, debateRun, dialogicRun } from './fixtures.js';
import { sweepRun, tiedDebateRun } from './fixtures-extra.js';

let work: string;
let chromium: LaunchedChromium | undefined;
let browser: Browser;
const pages: Record<string, string> = {};

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-report-layout-'));
  const sweep = await sweepRun(work);
  const sources: Record<string, ReportSource> = {
    argumentation: await loadReportSource((await argumentationRun(work)).statePath),
    dialogic: await loadReportSource(await dialogicRun(work)),
    debate: await loadReportSource(await debateRun(work)),
    tied: await loadReportSource(await tiedDebateRun(work)),
    sweep: await loadReportSource(join(sweep, 'summary.json')),
  };
  for (const [name, source] of Object.entries(sources)) {
    pages[name] = join(work, `${name}.html`);
    await writeFile(pages[name], await reportHtml(source));
  }
  // Two identical runs (the same transcript under two names) beside others.
  const members = await Promise.all((await readdir(sweep)).filter((name) => /^dlg-.*-r1\.json$/.test(name)).map((name) => loadReportSource(join(sweep, name))));
  pages.compare = join(work, 'compare.html');
  await writeFile(pages.compare, await compareHtml([sources.debate!, { ...sources.debate!, label: 'copy.json' }, sources.tied!, sources.dialogic!, ...members, sources.argumentation!, sources.sweep!]));
  chromium = await launchChromium({ width: 1400, height: 900 });
  browser = chromium.browser;
}, 180_000);

afterAll(async () => {
  await chromium?.close();
  await rm(work, { recursive: true, force: true });
});

async function open(name: string, width = 1400): Promise<Page> {
  const page = await browser.contexts()[0]!.newPage();
  await page.setViewportSize({ width, height: 900 });
  await page.goto(pathToFileURL(pages[name]!).href, { waitUntil: 'load' });
  return page;
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const boxes = async (locator: Locator): Promise<Box[]> => (await Promise.all((await locator.all()).map((element) => element.boundingBox()))).filter((box): box is Box => box !== null);

/** The Vega chart whose title is `title`. */
const chart = (page: Page, title: string): Locator => page.locator('svg.marks').filter({ has: page.locator('.role-title-text', { hasText: title }) });

describe('report pages in headless Chromium', () => {
  it('at 700 px no page scrolls sideways, with every collapsed section opened too', async () => {
    for (const name of ['argumentation', 'dialogic', 'debate', 'tied', 'compare', 'sweep']) {
      const page = await open(name, 700);
      expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth'), name).toBe(true);
      await page.evaluate('document.querySelectorAll("details").forEach((d) => { d.open = true; })');
      expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth'), `${name}, details open`).toBe(true);
      await page.close();
    }
  });

  it('at 700 px the debate agents table fits the screen without a scroll box of its own', async () => {
    for (const name of ['debate', 'tied']) {
      const page = await open(name, 700);
      const agents = page.locator('h2:text-is("Agents") + .wide');
      expect(await agents.evaluate((box) => box.scrollWidth <= box.clientWidth), name).toBe(true);
      await page.close();
    }
  });

  it('graph text stays inside its box: every line of every node, in every debate graph', async () => {
    for (const name of ['debate', 'tied']) {
      const page = await open(name);
      const outside = await page.locator('svg g.node').evaluateAll((nodes) =>
        nodes.flatMap((node) => {
          const shape = node.querySelector('polygon, path, ellipse')!.getBoundingClientRect();
          return [...node.querySelectorAll('text')]
            .map((text) => ({ text: text.textContent, box: text.getBoundingClientRect() }))
            .filter(({ box }) => box.left < shape.left - 0.5 || box.right > shape.right + 0.5)
            .map(({ text }) => text);
        }),
      );
      expect(outside, name).toEqual([]);
      expect(await page.locator('svg g.node text').count()).toBeGreaterThan(10);
      await page.close();
    }
  });

  it('"All rounds": edge labels clear of arrowheads, nodes and each other; the graph centred and drawn large', async () => {
    const page = await open('debate');
    const figure = page.locator('h3:text-is("All rounds")').locator('..');
    const svg = figure.locator('svg');
    const labels = await boxes(svg.locator('g.edge text'));
    const arrowheads = await boxes(svg.locator('g.edge polygon'));
    const nodes = await boxes(svg.locator('g.node path, g.node polygon'));
    expect(labels).toHaveLength(5);
    expect(arrowheads).toHaveLength(5);
    for (const label of labels) {
      for (const other of [...arrowheads, ...nodes]) expect(overlaps(label, other)).toBe(false);
      for (const other of labels) if (other !== label) expect(overlaps(label, other)).toBe(false);
    }
    const outer = (await figure.boundingBox())!;
    const inner = (await svg.boundingBox())!;
    expect(Math.abs(inner.x - outer.x - (outer.x + outer.width - inner.x - inner.width))).toBeLessThan(2);
    // Node text at 13 pt (17 px), not the 11 pt of the round graphs.
    for (const text of await boxes(svg.locator('g.node text'))) expect(text.height).toBeGreaterThan(16);
    await page.close();
  });

  it('dialogic: stacked bar charts fill their column, and each legend lists the colours top to bottom as the bars stack them', async () => {
    const page = await open('dialogic');
    for (const title of ['Survival by proposer', 'Survival by persona', 'Verdicts per negotiation cycle']) {
      const svg = chart(page, title);
      const axis = (await svg.locator('g.role-axis[aria-label^="X-axis"] .role-axis-domain line').boundingBox())!;
      expect(axis.width, title).toBeGreaterThan(300);
      const legend = await svg.locator('.role-legend-symbol path').evaluateAll((symbols) =>
        symbols.map((symbol) => ({ fill: symbol.getAttribute('fill'), y: symbol.getBoundingClientRect().y })).sort((a, b) => a.y - b.y).map((s) => s.fill),
      );
      // The bars of the first category, top to bottom.
      const stack = await svg.locator('.role-mark path').evaluateAll((bars) => {
        const drawn = bars.map((bar) => ({ fill: bar.getAttribute('fill'), box: bar.getBoundingClientRect() })).filter(({ box }) => box.height > 0);
        const left = Math.min(...drawn.map(({ box }) => box.x));
        return drawn.filter(({ box }) => box.x - left < 1).sort((a, b) => a.box.y - b.box.y).map(({ fill }) => fill);
      });
      expect(stack.length, title).toBeGreaterThanOrEqual(2);
      expect(legend.filter((fill) => stack.includes(fill)), title).toEqual(stack);
    }
    // The two survival charts side by side on a wide screen.
    const [proposer, persona] = [(await chart(page, 'Survival by proposer').boundingBox())!, (await chart(page, 'Survival by persona').boundingBox())!];
    expect(Math.abs(proposer.y - persona.y)).toBeLessThan(1);
    await page.close();
  });

  it('argumentation: the challenge timeline has one legend for the phases and one for the events', async () => {
    const page = await open('argumentation');
    const timeline = page.locator('h2:text-is("Challenges over iterations and phases") + .figure svg');
    expect(await timeline.locator('.role-legend-title').allTextContents()).toEqual(['phase', 'event']);
    expect(await timeline.locator('.role-legend-label').allTextContents()).toEqual(expect.arrayContaining(['opened', 'raised again', 'defended', 'ended']));
    expect(await timeline.locator('.role-legend-label').count()).toBe(6);
    await page.close();
  });

  it('comparison: identical runs are named together, so no line hides another', async () => {
    const page = await open('compare');
    for (const title of ['JS divergence per round (bits)', 'Agreement per round']) {
      const svg = chart(page, title);
      const legend = await svg.locator('.role-legend-label').allTextContents();
      expect(legend, title).toEqual(['debate.json = copy.json', 'tied.json']);
      expect(await svg.locator('.mark-line path').count()).toBe(legend.length);
    }
    await page.close();
  });
});
