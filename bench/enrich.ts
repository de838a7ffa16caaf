/**
 * Background enrichment against sustained ingest (issue 24): `npm run bench:enrich`.
 *
 * A SQLite database of ENRICH_SIZE memories of the scale corpus (test/support/scale-corpus.ts) is built once by the
 * first variant's server, through `POST /v1/memories/batch`, and its background backlog is then removed from the
 * queue (SQL), so that every run starts from the same memories and an empty queue. (Those base memories stay
 * unenriched: the corpus's one-sentence memories have no facts, and the links and contradiction checks of a new memory
 * search the same vectors either way.) Then each variant, in turn and alternating the order every round, gets a copy
 * of it, ingests the corpus's next ENRICH_EXTRA memories (batches of 100, 4 in flight, hash embedder) while its
 * enrichment runs, and then drains what is left. Printed per run: the ingest rate, enrichment tasks finished during
 * the ingest (`memd_task_duration_seconds_count` of `memory.enrich`), the backlog when the ingest stopped, the time
 * to drain it (`/health/ready` every 250 ms) and the load average.
 *
 * Environment: ENRICH_VARIANTS (`name=root[,VAR=value...]` separated by `;`, default `this=.`: `root` is a checkout
 * whose `npm run build` output runs, e.g. a built copy of main, and the settings apply to that variant's server),
 * ENRICH_SIZE (100000), ENRICH_EXTRA (20000), ENRICH_ROUNDS (2), ENRICH_DIR (/tmp/memd-bench-enrich; the base is
 * kept there and reused by a later run of the same size).
 */
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { ScaleCorpus } from '../test/support/scale-corpus.js';
import { parseMetrics, sampleValue } from '../test/support/prometheus.js';
import { loadAverages, machineLine } from './machine.js';
import { startBenchServer, waitReady } from './server-process.js';

interface Variant {
  name: string;
  root: string;
  env: Record<string, string>;
}

const VARIANTS: Variant[] = (process.env.ENRICH_VARIANTS ?? 'this=.').split(';').map((spec) => {
  const at = spec.indexOf('=');
  const [root, ...settings] = spec.slice(at + 1).split(',');
  return {
    name: spec.slice(0, at),
    root: resolve(root!),
    env: Object.fromEntries(settings.map((s) => [s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1)])),
  };
});
const SIZE = Number(process.env.ENRICH_SIZE ?? 100_000);
const EXTRA = Number(process.env.ENRICH_EXTRA ?? 20_000);
const ROUNDS = Number(process.env.ENRICH_ROUNDS ?? 2);
const ROOT = process.env.ENRICH_DIR ?? '/tmp/memd-bench-enrich';
const WORKSPACE = 'enrich';
const BATCH = 100;
const IN_FLIGHT = 4;

const log = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function post(url: string, body: unknown): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const value = (await response.json()) as { failed?: number };
  if (!response.ok || (value.failed ?? 0) > 0) throw new Error(`${url}: ${response.status} ${JSON.stringify(value)}`);
}

/** `from`..`to` of the corpus through the batch endpoint, 4 batches in flight; seconds taken. */
async function ingest(url: string, corpus: ScaleCorpus, from: number, to: number): Promise<number> {
  const started = performance.now();
  let next = from;
  const worker = async () => {
    while (next < to) {
      const at = next;
      next += BATCH;
      const operations = corpus.slice(at, Math.min(at + BATCH, to)).map((content) => ({ op: 'create', content }));
      await post(`${url}/v1/memories/batch`, { workspace_id: WORKSPACE, operations });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return (performance.now() - started) / 1000;
}

async function backlog(url: string): Promise<number> {
  const body = (await (await fetch(`${url}/health/ready`)).json()) as {
    services: { tasks: { pending: number; running: number } };
  };
  return body.services.tasks.pending + body.services.tasks.running;
}

async function enriched(url: string): Promise<number> {
  const samples = parseMetrics(await (await fetch(`${url}/metrics`)).text());
  return sampleValue(samples, 'memd_task_duration_seconds_count', { kind: 'memory.enrich', outcome: 'ok' }) ?? 0;
}

const serverEnv = (dir: string, variant: Variant): Record<string, string> => ({
  MEMD_DATA_DIR: dir,
  MEMD_EMBEDDING_PROVIDER: 'hash',
  MEMD_RECALL_CACHE_ENTRIES: '0',
  ...variant.env,
});

/** The base database: SIZE memories, no queued task. */
async function base(corpus: ScaleCorpus): Promise<string> {
  const dir = join(ROOT, `base-${SIZE}`);
  if (existsSync(join(dir, 'built'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = await startBenchServer(serverEnv(dir, VARIANTS[0]!), VARIANTS[0]!.root);
  try {
    await waitReady(server.url);
    await post(`${server.url}/v1/workspaces`, { id: WORKSPACE, name: 'enrich bench' });
    const seconds = await ingest(server.url, corpus, 0, SIZE);
    log(`base: ${SIZE} memories in ${seconds.toFixed(1)} s (load ${loadAverages()})`);
  } finally {
    await server.stop();
  }
  const db = new Database(join(dir, 'memd.sqlite'));
  const removed = db.prepare('DELETE FROM tasks').run().changes;
  db.close();
  log(`base: ${removed} queued tasks removed`);
  writeFileSync(join(dir, 'built'), new Date().toISOString());
  return dir;
}

async function run(variant: Variant, baseDir: string, corpus: ScaleCorpus): Promise<string> {
  const dir = join(ROOT, `run-${variant.name}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(baseDir, dir, { recursive: true });
  rmSync(join(dir, 'built'));
  const server = await startBenchServer(serverEnv(dir, variant), variant.root);
  try {
    await waitReady(server.url);
    const loadBefore = loadAverages();
    const before = await enriched(server.url);
    const ingestSeconds = await ingest(server.url, corpus, SIZE, SIZE + EXTRA);
    const during = (await enriched(server.url)) - before;
    const left = await backlog(server.url);
    const loadAtStop = loadAverages();
    const started = performance.now();
    while ((await backlog(server.url)) > 0) await sleep(250);
    const drainSeconds = (performance.now() - started) / 1000;
    return [
      `| ${variant.name}`,
      `${Math.round(EXTRA / ingestSeconds)} /s (${ingestSeconds.toFixed(1)} s)`,
      `${during} in ${ingestSeconds.toFixed(1)} s = ${Math.round(during / ingestSeconds)} /s`,
      `${left}`,
      `${drainSeconds.toFixed(1)} s = ${Math.round(left / drainSeconds)} /s`,
      `${loadBefore} / ${loadAtStop} / ${loadAverages()} |`,
    ].join(' | ');
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

log(`machine: ${machineLine()}, load ${loadAverages()}`);
log(
  `SQLite, hash embedder; base ${SIZE} memories, then ${EXTRA} more (batches of ${BATCH}, ${IN_FLIGHT} in flight); variants: ${VARIANTS.map(
    (v) =>
      `${v.name} (${v.root}${
        Object.keys(v.env).length
          ? `, ${Object.entries(v.env)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')}`
          : ''
      })`,
  ).join('; ')}`,
);
const corpus = new ScaleCorpus(SIZE + EXTRA, { questionsPerKind: 1 });
const baseDir = await base(corpus);
log(
  '\n| variant | ingest | enrichment during the ingest | backlog at its end | drained after it | load before / at the end of the ingest / drained |',
);
log('|---|---|---|---|---|---|');
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
  for (const variant of order) log(await run(variant, baseDir, corpus));
}
log(`\nload after: ${loadAverages()}`);
