/** What a reader needs to read the report pages, checked in headless Chromium at 1,400 and 700 px wide. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadReportSource, reportHtml } from '../../../protocols/report/index.js';
import { launchChromium, type LaunchedChromium } from './browser.js';
import { argumentationRun, debateRun, dialogicRun } from './fixtures.js';

let work: string;
let chromium: LaunchedChromium | undefined;
const pages: Record<string, string> = {};
const WIDTHS = [1400, 700];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-report-reading-'));
  const sources = {
    argumentation: await loadReportSource((await argumentationRun(work)).statePath),
    dialogic: await loadReportSource(await dialogicRun(work)),
    debate: await loadReportSource(await debateRun(work)),
  };
  for (const [name, source] of Object.entries(sources)) {
    pages[name] = join(work, `${name}.html`);
    await writeFile(pages[name], await reportHtml(source));
  }
  chromium = await launchChromium({ width: 1400, height: 900 });
}, 180_000);

afterAll(async () => {
  await chromium?.close();
  await rm(work, { recursive: true, force: true });
});

type Box = { x: number; y: number; width: number; height: number };

async function open(name: string, width: number): Promise<Page> {
  const page = await chromium!.browser.contexts()[0]!.newPage();
  await page.setViewportSize({ width, height: 900 });
  await page.goto(pathToFileURL(pages[name]!).href, { waitUntil: 'load' });
  return page;
}

describe('report pages, read in Chromium', () => {
  it('no stat card sits alone on a row of its own (debate: 9 cards, dialogic: 8, argumentation: 6)', async () => {
    for (const name of ['debate', 'dialogic', 'argumentation']) {
      for (const width of WIDTHS) {
        const page = await open(name, width);
        const tops = await page.locator('.cards .card').evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().top)));
        const rows = [...new Set(tops)].map((top) => tops.filter((t) => t === top).length);
        expect(tops.length, name).toBeGreaterThan(5);
        expect(rows.length === 1 || rows.every((cards) => cards > 1), `${name} at ${width} px: cards per row ${rows.join(', ')}`).toBe(true);
        await page.close();
      }
    }
  });

  it("a model spec wraps before its address, never inside it (the debate's agents at 700 px)", async () => {
    const page = await open('debate', 700);
    const lines = await page.locator('h2:text-is("Agents") + .wide td:first-child').evaluateAll((cells) =>
      cells.map((cell) => {
        const page = cell.ownerDocument;
        const walker = page.createTreeWalker(cell, 4 /* NodeFilter.SHOW_TEXT */);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const start = node.textContent!.indexOf('http://');
          if (start === -1) continue;
          const range = page.createRange();
          range.setStart(node, start);
          range.setEnd(node, node.textContent!.length);
          return { address: node.textContent!.slice(start), lines: new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size };
        }
        return { address: '', lines: 0 };
      }),
    );
    expect(lines).toHaveLength(4);
    for (const { address, lines: count } of lines) expect({ address, count }).toEqual({ address: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1#m\d$/), count: 1 });
    await page.close();
  });

  it('every event of the challenge timeline is in sight: a defense in the iteration that ended the challenge too', async () => {
    for (const width of WIDTHS) {
      const page = await open('argumentation', width);
      const timeline = page.locator('h2:text-is("Challenges over iterations and phases") + .figure svg');
      await timeline.scrollIntoViewIfNeeded();
      // The share of each marker's own area where it, not a marker drawn over it, is what the reader sees.
      const shown = await timeline.locator('g.mark-symbol.role-mark path').evaluateAll((markers) =>
        markers.map((marker) => {
          const shape = marker as unknown as { getBBox(): Box; getScreenCTM(): { a: number; b: number; c: number; d: number; e: number; f: number }; isPointInFill(point: unknown): boolean; getAttribute(name: string): string | null; ownerSVGElement: { createSVGPoint(): { x: number; y: number } } };
          const box = shape.getBBox();
          const toScreen = shape.getScreenCTM()!;
          let inside = 0;
          let seen = 0;
          for (let i = 0.5; i < 10; i++) {
            for (let j = 0.5; j < 10; j++) {
              const local = shape.ownerSVGElement.createSVGPoint();
              local.x = box.x + (box.width * i) / 10;
              local.y = box.y + (box.height * j) / 10;
              if (!shape.isPointInFill(local)) continue;
              inside++;
              const { a, b, c, d, e, f } = toScreen;
              if (marker.ownerDocument.elementFromPoint(a * local.x + c * local.y + e, b * local.x + d * local.y + f) === marker) seen++;
            }
          }
          return { fill: shape.getAttribute('fill'), share: inside ? seen / inside : 0 };
        }),
      );
      expect(shown.filter(({ fill }) => fill === '#2f5da8'), 'the defended markers').toHaveLength(2);
      for (const marker of shown) expect(marker.share, `${marker.fill} at ${width} px`).toBeGreaterThan(0.5);
      await page.close();
    }
  });
});
