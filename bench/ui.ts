/**
 * npm run bench:ui -- [--count 100000] [--dir /path/kept/between/runs]
 *
 * The explorer over a workspace of `count` memories (SQLite, hash embedder, the built server in its own process),
 * driven by headless chromium: how long until the memory list shows its first rows, how long each next page takes
 * to arrive as the reader keeps pressing End, how many rows the document holds meanwhile, the list route's own
 * latency (a page of 100 with its total count), the workspace panel's counts, and a recall in the playground.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser, openPage } from '../test/support/browser.js';
import { machineLine, percentile } from './machine.js';
import { syntheticSentences } from './sentences.js';
import { startBenchServer, waitReady } from './server-process.js';

const { values } = parseArgs({ options: { count: { type: 'string', default: '100000' }, pages: { type: 'string', default: '10' }, dir: { type: 'string' } } });
const count = Number(values.count);
const pages = Number(values.pages);
const WORKSPACE = 'bench-ui';

async function post(url: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Writes the memories, unless a kept data directory already holds them; answers the time it took. */
async function seed(url: string): Promise<number> {
  const existing = await fetch(`${url}/v1/memories?workspace_id=${WORKSPACE}&limit=1`);
  if (existing.ok && ((await existing.json()) as { total_count: number }).total_count === count) return 0;
  await post(url, '/v1/workspaces', { id: WORKSPACE, name: 'bench ui' });
  const sentences = syntheticSentences(count);
  const started = performance.now();
  const batches: string[][] = [];
  for (let i = 0; i < sentences.length; i += 1000) batches.push(sentences.slice(i, i + 1000));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      await post(url, '/v1/memories/batch', { workspace_id: WORKSPACE, operations: batch.map((content) => ({ op: 'create', content })) });
    }
  };
  await Promise.all([worker(), worker()]);
  return performance.now() - started;
}

const ms = (x: number) => `${x.toFixed(0)} ms`;

async function main() {
  const dataDir = values.dir ?? mkdtempSync(join(tmpdir(), 'memd-bench-ui-'));
  mkdirSync(dataDir, { recursive: true });
  // Enrichment (facts, links) would compete with the page for the two cores; the list, counts and recall do not need it.
  const server = await startBenchServer({ MEMD_DATA_DIR: dataDir, MEMD_EMBEDDING_PROVIDER: 'hash', MEMD_TASK_CONCURRENCY: '1', MEMD_TASK_POLL_MS: '60000' });
  const browser = await launchBrowser();
  try {
    await waitReady(server.url);
    const seeded = await seed(server.url);
    console.log(machineLine());
    console.log(seeded > 0 ? `seeded ${count.toLocaleString()} memories in ${(seeded / 1000).toFixed(1)} s` : `${count.toLocaleString()} memories already in ${dataDir}`);

    // The list route itself: a page of 100 with the total count, following cursors.
    const routeTimes: number[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const res = await fetch(`${server.url}/v1/memories?workspace_id=${WORKSPACE}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      const body = (await res.json()) as { next_cursor: string | null };
      routeTimes.push(performance.now() - started);
      cursor = body.next_cursor;
    }
    routeTimes.sort((a, b) => a - b);
    console.log(`GET /v1/memories?limit=100 (with total_count): p50 ${ms(percentile(routeTimes, 50))}, max ${ms(routeTimes.at(-1)!)}`);

    const { page } = await openPage(browser);
    let started = performance.now();
    await page.goto(`${server.url}/ui/w/${WORKSPACE}/memories`);
    const list = page.getByRole('listbox', { name: 'Memories' });
    await list.getByRole('option').first().waitFor();
    console.log(`memories screen, navigation to first rows: ${ms(performance.now() - started)}`);
    await list.focus();
    const pageTimes: number[] = [];
    for (let i = 1; i <= pages; i++) {
      started = performance.now();
      await page.keyboard.press('End');
      await page.getByText(`${(100 * (i + 1)).toLocaleString('en-US')} loaded`).waitFor();
      pageTimes.push(performance.now() - started);
    }
    pageTimes.sort((a, b) => a - b);
    console.log(`next page on End (${pages} pages): p50 ${ms(percentile(pageTimes, 50))}, max ${ms(pageTimes.at(-1)!)}; rows in the document: ${await list.getByRole('option').count()} of ${(100 * (pages + 1)).toLocaleString()} loaded`);

    started = performance.now();
    await page.goto(`${server.url}/ui/workspaces`);
    await page.getByRole('table', { name: 'Memories by status' }).waitFor();
    console.log(`workspaces screen with counts by type and status: ${ms(performance.now() - started)}`);

    await page.goto(`${server.url}/ui/w/${WORKSPACE}/recall`);
    await page.getByLabel('Query').fill('Who fixed the billing service in Lisbon?');
    started = performance.now();
    await page.getByRole('button', { name: 'Recall', exact: true }).click();
    await page.locator('ol.results > li').first().waitFor();
    console.log(`recall playground, click to results (explain on): ${ms(performance.now() - started)}`);
  } finally {
    await browser.close();
    await server.stop();
    if (!values.dir) rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
