import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it). */
export const CHROMIUM = process.env.MEMD_TEST_CHROMIUM ?? '/usr/bin/chromium';

/** Headless, and quiet on the network: without the background-networking flags chromium dials out at start. */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/ui/', import.meta.url));

export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: ARGS });

export interface WatchedPage {
  page: Page;
  /** Console errors and uncaught exceptions of the page, as text. */
  errors: string[];
}

/** A fresh page (its own storage) that records every console error and uncaught exception. */
export async function openPage(
  browser: Browser,
  options: { colorScheme?: 'light' | 'dark' } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: { width: 1360, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`exception: ${error.message}`));
  return { page, errors };
}

/** Saves a screenshot of the whole page as test-artifacts/ui/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}
