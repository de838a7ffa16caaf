/**
 * npm run bench:ui -- [--count 100000] [--pages 10] [--dir /path/kept/between/runs]
 *
 * The explorer over a workspace of `count` memories and about 1.5 associations per memory (SQLite, hash embedder,
 * the built server in its own process), driven by headless chromium, as a reader uses it:
 * - the memories screen opened cold (fresh browser context, nothing cached): first contentful paint, and the time
 *   until the first rows of the list show; what the page downloaded;
 * - the windowed list: each next page of 100 as the reader keeps pressing End, then scrolling back through every
 *   loaded row a screen at a time (is the new screen's row in the document on the frame after the scroll?), the
 *   rows the document holds meanwhile, long tasks, and the page's JS heap at the end;
 * - opening a memory from the list (Enter on a row): until its every-field table shows, until its associations
 *   graph is drawn;
 * - a recall in the playground (explain on), click to results, with the server's own time;
 * - the graph screen (newest 2,000 memories, then 5,000): until the graph is drawn, and until its layout settles;
 * - the workspaces screen with the counts by type and status;
 * - and the list route itself (a page of 100 with its total count).
 *
 * The workspace is written once through the import route (NDJSON: memories with their timestamps over 90 days,
 * then associations), which is the public API's way to write links in bulk; `--dir` keeps it for the next run.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page, Request } from 'playwright-core';
import { seededRandom } from '../src/core/random.js';
import { launchBrowser, openPage } from '../test/support/browser.js';
import { machineLine, percentile } from './machine.js';
import { syntheticSentences } from './sentences.js';
import { startBenchServer, waitReady } from './server-process.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    pages: { type: 'string', default: '10' },
    dir: { type: 'string' },
  },
});
const count = Number(values.count);
const pages = Number(values.pages);
const WORKSPACE = 'bench-ui';
const COLD_LOADS = 3;
const OPENED = 5;
const QUERIES = [
  'Who fixed the billing service in Lisbon?',
  'What does Priya prefer to eat?',
  'Why did the payment gateway fail?',
  'Latency of the search index',
  'Which team needs more engineers by Q3?',
];

async function post(url: string, path: string, body: unknown, contentType = 'application/json'): Promise<any> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return res.json();
}

/**
 * The workspace as export lines. Memory i is written at a time that grows with i over the last 90 days; it links to
 * one of the 20 memories before it (a conversation's neighbours) and, every other memory, to one of the 50 before it
 * of its topic: links are mostly local in time, as enrichment makes them, so the graph of the newest memories has
 * edges and communities.
 */
function exportLines(n: number): string {
  const random = seededRandom(19);
  const sentences = syntheticSentences(n);
  const types = ['semantic', 'semantic', 'episodic', 'procedural'];
  const topics = [
    'billing',
    'search',
    'onboarding',
    'mobile',
    'payments',
    'pipeline',
    'auth',
    'reports',
    'cache',
    'email',
  ];
  const users = ['maria', 'kenji', 'amara', 'lukas', 'priya', 'diego', 'sofia', 'omar'];
  const start = Date.now() - 90 * 86_400_000;
  const step = (90 * 86_400_000) / n;
  const lines: string[] = [];
  sentences.forEach((content, i) => {
    const data = {
      id: `m${i}`,
      content,
      type: types[i % types.length],
      tags: [topics[i % topics.length]],
      user_id: users[i % users.length],
      created_at: new Date(start + i * step).toISOString(),
    };
    lines.push(JSON.stringify({ type: 'memory', index: i, data }));
  });
  const link = (source: number, target: number, relationship: string) =>
    lines.push(
      JSON.stringify({
        type: 'association',
        data: {
          source_id: `m${source}`,
          target_id: `m${target}`,
          relationship_type: relationship,
          strength: Math.round((0.3 + 0.7 * random()) * 100) / 100,
        },
      }),
    );
  for (let i = 1; i < n; i++) {
    link(i, Math.max(0, i - 1 - Math.floor(random() * 20)), 'related_to');
    const sameTopic = i - topics.length * (1 + Math.floor(random() * 50));
    if (i % 2 === 0 && sameTopic >= 0) link(i, sameTopic, 'similar_to');
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the workspace, unless a kept data directory already holds it; answers what it did. */
async function seed(url: string): Promise<string> {
  const existing = await fetch(`${url}/v1/memories?workspace_id=${WORKSPACE}&limit=1`);
  const held = existing.ok ? ((await existing.json()) as { total_count: number }).total_count : 0;
  if (held === count) return `${count.toLocaleString('en-US')} memories already there`;
  if (held > 0)
    throw new Error(`the data directory holds ${held} memories in ${WORKSPACE}, not ${count}: use another --dir`);
  // A read of a workspace creates it (workspaces are created on first use), so it may exist by now.
  const created = await fetch(`${url}/v1/workspaces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: WORKSPACE, name: 'bench ui' }),
  });
  if (!created.ok && created.status !== 409) throw new Error(`create workspace: ${created.status}`);
  const body = exportLines(count);
  const started = performance.now();
  const report = (await post(url, `/v1/workspaces/${WORKSPACE}/import`, body, 'application/x-ndjson')) as {
    imported: number;
    associations_imported: number;
    errors: number;
  };
  const seconds = (performance.now() - started) / 1000;
  if (report.imported !== count || report.errors > 0)
    throw new Error(`import: ${JSON.stringify(report).slice(0, 300)}`);
  return `imported ${report.imported.toLocaleString('en-US')} memories and ${report.associations_imported.toLocaleString('en-US')} associations (${(body.length / 1024 ** 2).toFixed(0)} MiB of NDJSON) in ${seconds.toFixed(1)} s`;
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
const spread = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${ms(percentile(sorted, 50))}, max ${ms(sorted.at(-1)!)} (n = ${sorted.length})`;
};
const since = (started: number) => performance.now() - started;

/** Long tasks (over 50 ms of main thread) from now on, read by `longTasks(page)`. */
const WATCH_LONG_TASKS = `window.__long = []; new PerformanceObserver((list) => window.__long.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });`;
const longTasks = async (page: Page) => (await page.evaluate('window.__long')) as number[];

async function listRoute(url: string): Promise<void> {
  const times: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    const res = await fetch(
      `${url}/v1/memories?workspace_id=${WORKSPACE}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    const body = (await res.json()) as { next_cursor: string | null };
    times.push(since(started));
    cursor = body.next_cursor;
  }
  console.log(`GET /v1/memories?limit=100 with total_count, 20 pages by cursor: ${spread(times)}`);
}

/** The memories screen in a fresh context (nothing cached): paint, first rows, bytes. */
async function coldLoads(browser: Browser, url: string): Promise<void> {
  const firstRows: number[] = [];
  const paints: number[] = [];
  let transferred = 0;
  for (let i = 0; i < COLD_LOADS; i++) {
    const { page } = await openPage(browser);
    const started = performance.now();
    await page.goto(`${url}/ui/w/${WORKSPACE}/memories`);
    await page.getByRole('listbox', { name: 'Memories' }).getByRole('option').first().waitFor();
    firstRows.push(since(started));
    const paint = (await page.evaluate(
      `performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN`,
    )) as number;
    paints.push(paint);
    transferred = (await page.evaluate(
      `performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation')).reduce((sum, e) => sum + e.transferSize, 0)`,
    )) as number;
    await page.context().close();
  }
  console.log(
    `memories screen, cold: first contentful paint ${spread(paints)}; navigation to first rows ${spread(firstRows)}; ${(transferred / 1024).toFixed(0)} KiB transferred`,
  );
}

/** End, page after page; then back through every loaded row a screen at a time. */
async function scrolling(page: Page): Promise<void> {
  const list = page.getByRole('listbox', { name: 'Memories' });
  await list.getByRole('option').first().waitFor();
  await page.evaluate(WATCH_LONG_TASKS);
  await list.focus();
  const pageTimes: number[] = [];
  let most = 0;
  for (let i = 1; i <= pages; i++) {
    const started = performance.now();
    await page.keyboard.press('End');
    await page.getByText(`${(100 * (i + 1)).toLocaleString('en-US')} loaded`).waitFor();
    pageTimes.push(since(started));
    most = Math.max(most, await list.getByRole('option').count());
  }
  const loaded = 100 * (pages + 1);
  console.log(`next page of 100 on End, ${pages} pages: ${spread(pageTimes)}`);

  // Scrolled from the top to the last loaded row, one screen at a time: time from setting scrollTop to the second
  // frame after (the list renders in between), and whether the row at the new top is then in the document. (The
  // last screen asks for the next page, which is not waited for.)
  const { steps, screen } = (await page.evaluate(`(async () => {
    const box = document.querySelector('[role=listbox]');
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const row = box.querySelector('[role=option]').offsetHeight;
    box.scrollTop = 0;
    await frame();
    const steps = [];
    while (box.scrollTop + box.clientHeight < ${loaded} * row) {
      const started = performance.now();
      box.scrollTop += box.clientHeight;
      await frame();
      const top = Math.floor(box.scrollTop / row) + 1;
      steps.push({ ms: performance.now() - started, drawn: document.querySelector('[role=option][aria-posinset="' + top + '"]') !== null, rows: box.querySelectorAll('[role=option]').length });
    }
    return { steps, screen: Math.floor(box.clientHeight / row) };
  })()`)) as { steps: Array<{ ms: number; drawn: boolean; rows: number }>; screen: number };
  most = Math.max(most, ...steps.map((s) => s.rows));
  const long = await longTasks(page);
  const heap = (await page.evaluate('performance.memory.usedJSHeapSize')) as number;
  console.log(
    `scrolling ${loaded.toLocaleString('en-US')} loaded rows a screen (${screen} rows) at a time: to the second frame ${spread(steps.map((s) => s.ms))}; new top row drawn on ${steps.filter((s) => s.drawn).length} of ${steps.length} steps`,
  );
  console.log(
    `rows in the document at most: ${most} (of ${loaded.toLocaleString('en-US')} loaded); long tasks meanwhile: ${long.length}${long.length ? `, longest ${ms(Math.max(...long))}` : ''}; page JS heap ${(heap / 1024 ** 2).toFixed(1)} MiB`,
  );
}

/**
 * In the page, from the next Enter or click on: when the every-field table of memory `id` is in the document, when a
 * new graph canvas is, and when a frame was painted after that (the graph renderer blocks the main thread while it
 * loads and mounts). Measured in the page, so the times are not those of the bench's polling.
 */
const markOpening = (id: string) => `(() => {
  window.__marks = {};
  const start = () => { window.__marks.start ??= performance.now(); };
  document.addEventListener('keydown', (e) => e.key === 'Enter' && start(), { capture: true, once: true });
  document.addEventListener('click', start, { capture: true, once: true });
  const before = new Set(document.querySelectorAll('.graphcanvas canvas'));
  const shown = () => [...document.querySelectorAll('table.fields tr')].some((tr) => tr.querySelector('th')?.textContent === 'id' && tr.querySelector('td')?.textContent.includes(${JSON.stringify(id)}));
  const observer = new MutationObserver(() => {
    const marks = window.__marks;
    if (!marks.start) return;
    if (!marks.fields && shown()) marks.fields = performance.now();
    if (!marks.graph && [...document.querySelectorAll('.graphcanvas canvas')].some((canvas) => !before.has(canvas))) {
      marks.graph = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => { marks.painted = performance.now(); observer.disconnect(); }));
    }
  });
  observer.observe(document.body, { childList: true, subtree: true });
})()`;

interface Opening {
  fields: number;
  graph: number;
  painted: number;
}

async function opened(page: Page, id: string, open: () => Promise<void>): Promise<Opening> {
  await page.evaluate(markOpening(id));
  await open();
  // A function, not a string: the page's Content-Security-Policy forbids evaluating strings in it.
  await page.waitForFunction(
    () => (globalThis as { __marks?: { painted?: number } }).__marks?.painted !== undefined,
    undefined,
    { timeout: 60_000 },
  );
  const marks = (await page.evaluate('window.__marks')) as Opening & { start: number };
  return { fields: marks.fields - marks.start, graph: marks.graph - marks.start, painted: marks.painted - marks.start };
}

const openings = (label: string, all: Opening[]) =>
  console.log(
    `${label}: every field in the document ${spread(all.map((o) => o.fields))}; graph canvas ${spread(all.map((o) => o.graph))}; a frame painted after it ${spread(all.map((o) => o.painted))}`,
  );

/**
 * A row of the first page opened with Enter, on a freshly loaded list (the graph renderer's module is evaluated
 * anew each time); then, from a memory's page, its first association followed (the module is loaded by then).
 */
async function openingMemories(page: Page, url: string): Promise<void> {
  const fromList: Opening[] = [];
  for (let i = 0; i < OPENED; i++) {
    await page.goto(`${url}/ui/w/${WORKSPACE}/memories`);
    const list = page.getByRole('listbox', { name: 'Memories' });
    await list.getByRole('option').first().waitFor();
    await list.focus();
    for (let down = 0; down < i * 3; down++) await page.keyboard.press('ArrowDown');
    const row = (await list.getAttribute('aria-activedescendant'))!.replace(/^row-/, '');
    fromList.push(await opened(page, row, () => page.keyboard.press('Enter')));
  }
  openings('open a memory from a freshly loaded list (Enter)', fromList);
  const followed: Opening[] = [];
  for (let i = 0; i < OPENED; i++) {
    const link = page
      .getByRole('region', { name: /^Associations/ })
      .getByRole('cell')
      .getByRole('link')
      .first();
    const next = (await link.getAttribute('href'))!.split('/').at(-1)!;
    followed.push(await opened(page, next, () => link.click()));
  }
  openings('follow an association to the next memory', followed);
}

async function recalls(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/ui/w/${WORKSPACE}/recall`);
  const pageTimes: number[] = [];
  const serverTimes: number[] = [];
  for (const query of QUERIES) {
    await page.getByLabel('Query').fill(query);
    const started = performance.now();
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/v1/memories/recall')),
      page.getByRole('button', { name: 'Recall', exact: true }).click(),
    ]);
    const body = (await response.json()) as { search_latency_ms: number; memories: Array<{ content: string }> };
    // Shown: the first result of this answer heads the list (the previous query's results are there until then).
    await page
      .locator('ol.results > li')
      .first()
      .getByRole('link', { name: body.memories[0]!.content, exact: true })
      .waitFor();
    pageTimes.push(since(started));
    serverTimes.push(body.search_latency_ms);
  }
  console.log(
    `recall playground (explain on), click to results: ${spread(pageTimes)}; the server's search_latency_ms ${spread(serverTimes)}`,
  );
}

async function graph(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/ui/w/${WORKSPACE}/memories`);
  await page.getByRole('listbox', { name: 'Memories' }).getByRole('option').first().waitFor();
  await page.evaluate(WATCH_LONG_TASKS);
  for (const size of [2000, 5000]) {
    // Each request's time from its start to its last byte, as the browser saw it.
    const responses: Record<string, number> = {};
    const onFinished = (request: Request) => {
      const name = /\/v1\/graph\/(snapshot|analyze)/.exec(request.url())?.[1];
      if (name) responses[name] = request.timing().responseEnd;
    };
    page.on('requestfinished', onFinished);
    const started = performance.now();
    if (size === 2000)
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Graph' }).click();
    else await page.getByLabel('Newest memories').selectOption(String(size));
    const canvas = page.getByRole('img', {
      name: new RegExp(`Association graph: ${size.toLocaleString('en-US').replace(',', ',?')} memories`),
    });
    await canvas.locator('canvas').first().waitFor({ timeout: 300_000 });
    const drawn = since(started);
    await page.getByText('laying out…').waitFor({ state: 'detached', timeout: 300_000 });
    const settled = since(started);
    page.off('requestfinished', onFinished);
    const label = await canvas.getAttribute('aria-label');
    const long = await longTasks(page);
    console.log(
      `graph screen, newest ${size.toLocaleString('en-US')}: drawn ${ms(drawn)}, layout settled ${ms(settled)} (${label?.replace('Association graph: ', '')}; snapshot answered in ${ms(responses.snapshot ?? Number.NaN)}, analyze in ${ms(responses.analyze ?? Number.NaN)}; longest task ${long.length ? ms(Math.max(...long)) : 'none over 50 ms'})`,
    );
    await page.evaluate('window.__long = []');
  }
}

async function workspaces(page: Page, url: string): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await page.goto(`${url}/ui/workspaces`);
    await page.getByRole('table', { name: 'Memories by status' }).waitFor();
    times.push(since(started));
  }
  console.log(`workspaces screen, navigation to the counts by type and status: ${spread(times)}`);
}

async function main() {
  const dataDir = values.dir ?? mkdtempSync(join(tmpdir(), 'memd-bench-ui-'));
  mkdirSync(dataDir, { recursive: true });
  // Enrichment (facts, links) would compete with the page for the two cores; the workspace brings its links.
  const server = await startBenchServer({
    MEMD_DATA_DIR: dataDir,
    MEMD_EMBEDDING_PROVIDER: 'hash',
    MEMD_TASK_CONCURRENCY: '1',
    MEMD_TASK_POLL_MS: '60000',
  });
  const browser = await launchBrowser();
  try {
    await waitReady(server.url);
    console.log(machineLine());
    console.log(await seed(server.url));
    await listRoute(server.url);
    await coldLoads(browser, server.url);
    const { page, errors } = await openPage(browser);
    await page.goto(`${server.url}/ui/w/${WORKSPACE}/memories`);
    // Headless and --disable-gpu (test/support/browser.ts): WebGL, so the graph renderer, is drawn by the CPU here.
    const webgl = await page.evaluate(
      `(() => { const gl = document.createElement('canvas').getContext('webgl2'); const info = gl?.getExtension('WEBGL_debug_renderer_info'); return gl ? gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) : 'none'; })()`,
    );
    console.log(`chromium ${browser.version()}, WebGL renderer: ${String(webgl)}`);
    await scrolling(page);
    await openingMemories(page, server.url);
    await recalls(page, server.url);
    await graph(page, server.url);
    await workspaces(page, server.url);
    if (errors.length) console.log(`the page logged: ${errors.join('; ')}`);
  } finally {
    await browser.close();
    await server.stop();
    if (!values.dir) rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
