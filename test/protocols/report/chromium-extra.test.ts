import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareHtml, loadReportSource, reportHtml, type ReportSource } from '../../../protocols/report/index.js';
import { launchChromium, type LaunchedChromium } from './browser.js';
import { argumentationRun, debateRun, dialogicRun } from './fixtures.js';
import { REASONING, sweepRun, tiedDebateRun } from './fixtures-extra.js';
import { PHENOMENAI_RUN } from '../../doubles/interop.js';

const SHOTS = resolve('test-output/report');

let work: string;
let chromium: LaunchedChromium | undefined;
let browser: Browser;
const pages: Record<string, string> = {};

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-report-web-extra-'));
  await mkdir(SHOTS, { recursive: true });
  const sweep = await sweepRun(work);
  const sweepRuns = (await readdir(sweep)).filter((name) => /^dlg-.*-r1\.json$/.test(name)).sort();
  const sources: Record<string, ReportSource> = {
    argumentation: await loadReportSource((await argumentationRun(work)).statePath),
    dialogic: await loadReportSource(await dialogicRun(work)),
    debate: await loadReportSource(await debateRun(work)),
    tied: await loadReportSource(await tiedDebateRun(work)),
    foreign: await loadReportSource(PHENOMENAI_RUN),
    sweep: await loadReportSource(join(sweep, 'summary.json')),
  };
  for (const name of ['dialogic', 'debate', 'tied', 'foreign']) {
    pages[name] = join(work, `${name}.html`);
    await writeFile(pages[name], await reportHtml(sources[name]!));
  }
  // The widest page we can make: a sweep's cells, four runs of it, and one run of each protocol.
  const members = await Promise.all(sweepRuns.map((name) => loadReportSource(join(sweep, name))));
  pages.compare = join(work, 'compare.html');
  await writeFile(pages.compare, await compareHtml([sources.sweep!, ...members, sources.debate!, sources.tied!, sources.foreign!, sources.argumentation!]));
  chromium = await launchChromium({ width: 1400, height: 900 });
  browser = chromium.browser;
}, 180_000);

afterAll(async () => {
  await chromium?.close();
  await rm(work, { recursive: true, force: true });
});

async function open(name: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.contexts()[0]!.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(pathToFileURL(pages[name]!).href, { waitUntil: 'load' });
  return { page, problems };
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  await page.close();
}

/** The Vega chart whose title is `title`. */
const chart = (page: Page, title: string): Locator => page.locator('svg.marks').filter({ has: page.locator('.role-title-text', { hasText: title }) });

/** SVG elements have no innerText: their text content. */
const texts = (locator: Locator): Promise<string[]> => locator.evaluateAll((elements) => elements.map((element) => element.textContent ?? ''));

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('report pages in headless Chromium at 1400 x 900', () => {
  it('debate: each turn is collapsed until opened, then shows its answer, confidence and reasoning', async () => {
    const { page, problems } = await open('tied');
    expect(problems).toEqual([]);
    const turns = page.locator('details.turn');
    expect(await turns.count()).toBe(12);
    const first = turns.first();
    const reasoning = first.locator('dd', { hasText: REASONING });
    expect(await reasoning.isVisible()).toBe(false);
    expect(await first.getAttribute('open')).toBeNull();
    expect(await first.locator('summary').innerText()).toMatch(/^Agent 1 → yes\s+confidence 0\.9$/);
    await first.locator('summary').click();
    expect(await first.getAttribute('open')).not.toBeNull();
    expect(await reasoning.isVisible()).toBe(true);
    const pairs = await first.locator('dt').allInnerTexts();
    expect(pairs.slice(0, 3)).toEqual(['answer', 'confidence', 'reasoning']);
    expect(await first.locator('dd').nth(0).innerText()).toBe('yes');
    expect(await first.locator('dd').nth(1).innerText()).toBe('0.9');
    // Rounds 1 and 2 split 2-2: the report says so instead of naming a majority.
    expect(await page.locator('h3', { hasText: 'Round 1' }).first().innerText()).toContain('majority: tie: no, yes');
    await shoot(page, 'debate-tied');
  });

  it('debate: the whole-debate influence graph is an SVG of the agents with stance-coloured edges across rounds', async () => {
    const { page, problems } = await open('debate');
    expect(problems).toEqual([]);
    const whole = page.locator('h2:text-is("Influence across the whole debate") + p + .figure svg');
    expect(await whole.count()).toBe(1);
    expect(await whole.locator('g.node').count()).toBe(4);
    expect(await whole.locator('g.edge path[stroke="#c0392b"]').count()).toBe(2);
    // Agents 2 and 4 conceded to Agent 1, Agent 3 supported it, Agent 1 rebutted 2 and 4: all in round 2.
    expect((await texts(whole.locator('g.edge text'))).sort()).toEqual(['concede (r2)', 'concede (r2)', 'rebut (r2)', 'rebut (r2)', 'support (r2)']);
    const box = await whole.boundingBox();
    expect(box!.width).toBeGreaterThan(150);
    expect(box!.height).toBeGreaterThan(150);
    await shoot(page, 'debate-whole-graph');
  });

  it('debate: a round without a CRIT score is a gap in the rho line, not a point at 0', async () => {
    const { page } = await open('tied');
    const rho = chart(page, 'Beta and CRIT rho');
    expect(await rho.count()).toBe(1);
    const path = await rho.locator('.mark-line path').first().getAttribute('d');
    // Rounds 1 and 3 only: two sub-paths, two points, and no point at the bottom of the axis.
    expect(path!.match(/M/g)).toHaveLength(2);
    expect(await rho.locator('.mark-symbol path').count()).toBe(2);
    await page.close();
  });

  it('dialogic: the axis labels of the survival charts do not overlap', async () => {
    for (const name of ['dialogic', 'foreign']) {
      const { page, problems } = await open(name);
      expect(problems).toEqual([]);
      for (const title of ['Survival by persona', 'Survival by proposer']) {
        const labels = chart(page, title).locator('g.role-axis[aria-label^="X-axis"] .role-axis-label text');
        // Whole labels (not cut to "heidegge…"), and no two of them touching.
        expect(await texts(labels), title).toEqual(expect.arrayContaining([expect.stringMatching(/^(heideggerian|Model B)$/)]));
        const boxes = (await Promise.all((await labels.all()).map((label) => label.boundingBox()))).filter((box): box is Box => box !== null && box.width > 0);
        expect(boxes.length).toBeGreaterThanOrEqual(2);
        for (let i = 0; i < boxes.length; i += 1) for (let j = i + 1; j < boxes.length; j += 1) expect(overlaps(boxes[i]!, boxes[j]!)).toBe(false);
      }
      await shoot(page, `dialogic-axes-${name}`);
    }
  });

  it('comparison: fits a 1400 px screen and names sweep columns by their parameters', async () => {
    const { page, problems } = await open('compare');
    expect(problems).toEqual([]);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1400);
    for (const table of await page.locator('table').all()) expect((await table.boundingBox())!.width).toBeLessThanOrEqual(1400);
    const heads = await page.locator('th').allInnerTexts();
    expect(heads).toContain('pairing=p1, anonymise=true');
    expect(heads).toContain('pairing=p2, anonymise=false #1');
    expect(heads.some((head) => head.endsWith('.json') && head.startsWith('dlg-'))).toBe(false);
    await shoot(page, 'compare-1400');
  });
});
