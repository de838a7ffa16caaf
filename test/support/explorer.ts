import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import { MemdClient } from '../../packages/client/src/index.js';
import { launchBrowser, openPage, type WatchedPage } from './browser.js';
import { startServer, type TestServer, type TestServerOptions } from './server.js';
import { ensureUiBuilt } from './ui-build.js';

/** A real memd serving the built explorer, a client for arranging data, and a headless chromium to drive the page. */
export interface Explorer {
  server: TestServer;
  memd: MemdClient;
  browser: Browser;
  /** A fresh tab at `path` (under /ui), light unless asked. */
  open(path: string, options?: { colorScheme?: 'light' | 'dark' }): Promise<WatchedPage>;
  stop(): Promise<void>;
}

export async function startExplorer(options: TestServerOptions & { apiKey?: string } = {}): Promise<Explorer> {
  await ensureUiBuilt();
  const server = await startServer(options);
  const browser = await launchBrowser();
  return {
    server,
    memd: new MemdClient({ baseUrl: server.url, ...(options.apiKey && { apiKey: options.apiKey }) }),
    browser,
    async open(path, openOptions = {}) {
      const watched = await openPage(browser, openOptions);
      await watched.page.goto(`${server.url}${path}`);
      return watched;
    },
    async stop() {
      await browser.close();
      await server.stop();
    },
  };
}

/** The page logged no error and threw nothing: a screen that fails quietly fails its test. */
export function expectCleanConsole(watched: WatchedPage, allowed: RegExp[] = []): void {
  expect(watched.errors.filter((error) => !allowed.some((pattern) => pattern.test(error)))).toEqual([]);
}
