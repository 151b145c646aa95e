/** The report tests' one browser: Debian's Chromium through playwright-core, headless, with an empty profile of its own. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface LaunchedChromium {
  browser: Browser;
  /** Closes the browser, then removes its profile folder. */
  close: () => Promise<void>;
}

/** One browser for every page of a test file (CI time); pages open in `browser.contexts()[0]`. */
export async function launchChromium(viewport: { width: number; height: number }): Promise<LaunchedChromium> {
  const profile = await mkdtemp(join(tmpdir(), 'parley-chromium-profile-'));
  let browser: Browser;
  try {
    browser = (await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS, viewport })).browser()!;
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    browser,
    close: async () => {
      await browser.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
