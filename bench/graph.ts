/**
 * Association graph at size: `npm run bench:graph` (or `npm run bench:graph -- sqlite` for one engine).
 * A workspace of 10,000 memories (batch endpoint, `hash` embedder) and 50,000 associations (written through the
 * storage layer in transactions of 5,000: 50,000 HTTP calls would measure HTTP, not the graph), clustered like real
 * memories: 100 topics of 100 memories, 80% of the links inside a topic. Then, over HTTP: traversal latency (p50/p95
 * of 200 starts, three parameter sets), `POST /v1/graph/analyze` and a knowledgebase generation, with the longest
 * event-loop stall seen while they ran. SQLite, and Postgres through PGlite. The server runs in this process (the
 * edges are written through its storage, and the stall is the server's own loop), so the client's work counts too.
 */
import { loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createApp, type MemdApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { seededRandom } from '../src/core/random.js';
import { newId } from '../src/core/ids.js';
import type { Association } from '../src/storage/types.js';
import { freshSchema, startPglite } from '../test/support/postgres.js';
import { machineLine, percentile } from './machine.js';

const MEMORIES = 10_000;
const EDGES = 50_000;
const TOPICS = 100;
const INSIDE_TOPIC = 0.8;
const TRAVERSALS = 200;
const RELATIONSHIPS = ['related_to', 'similar_to', 'causes', 'solves', 'part_of', 'follows', 'requires', 'supports'];
const WORDS =
  'amber basalt cedar delta ember fjord garnet harbor iris jasper kelp lagoon maple nectar onyx prairie quartz river sierra tundra umber violet willow xenon yarrow zephyr'.split(
    ' ',
  );

const ms = (x: number): string => `${x.toFixed(1)} ms`;

async function call(url: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const parsed = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(parsed).slice(0, 300)}`);
  return parsed;
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

/** Runs `work` while sampling the event loop; returns the longest stall seen. */
async function withLoopMonitor<T>(work: () => Promise<T>): Promise<{ value: T; maxStallMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const value = await work();
  histogram.disable();
  return { value, maxStallMs: histogram.max / 1e6 };
}

async function bench(engine: string, env: Record<string, string>): Promise<void> {
  // The same graph on every engine.
  const random = seededRandom(7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const dataDir = mkdtempSync(join(tmpdir(), 'memd-bench-graph-'));
  const config = loadConfig({
    MEMD_DATA_DIR: dataDir,
    MEMD_EMBEDDING_PROVIDER: 'hash',
    MEMD_HOST: '127.0.0.1',
    MEMD_PORT: '0',
    ...env,
  });
  const app: MemdApp = await createApp(config, { logLevel: 'warn' });
  const url = await app.listen(0);
  await app.ready();
  // Enrichment would add similarity links of its own; the graph here is the one described above.
  await app.services.tasks.stop();
  try {
    const ws = 'bench-graph';
    await call(url, 'POST', '/v1/workspaces', { id: ws, name: ws, settings: { deduplication: false } });
    const ingest = await timed(async () => {
      const ids: string[] = [];
      for (let start = 0; start < MEMORIES; start += 1000) {
        const operations = Array.from({ length: 1000 }, (_, k) => {
          const i = start + k;
          const topic = i % TOPICS;
          return {
            op: 'create',
            content: `Topic ${topic} note ${i}: ${WORDS[topic % WORDS.length]} ${WORDS[(topic * 7) % WORDS.length]} ${pick(WORDS)} ${pick(WORDS)} ${i * 17}`,
          };
        });
        const result = await call(url, 'POST', '/v1/memories/batch', { workspace_id: ws, operations });
        ids.push(...result.results.map((r: { memory_id: string }) => r.memory_id));
      }
      return ids;
    });
    const ids = ingest.value;
    const byTopic = Array.from({ length: TOPICS }, (_, t) => ids.filter((_, i) => i % TOPICS === t));
    const topicOf = new Map(ids.map((id, i) => [id, i % TOPICS]));

    const storage = app.services.storage;
    const edges = await timed(async () => {
      const now = new Date().toISOString();
      let written = 0;
      while (written < EDGES) {
        const batch: Association[] = [];
        while (batch.length < 5000 && written + batch.length < EDGES) {
          const source = pick(ids);
          const target = random() < INSIDE_TOPIC ? pick(byTopic[topicOf.get(source)!]!) : pick(ids);
          if (source === target) continue;
          batch.push({
            id: newId('assoc'),
            workspace_id: ws,
            source_id: source,
            target_id: target,
            relationship: pick(RELATIONSHIPS),
            strength: Math.round((0.3 + 0.7 * random()) * 100) / 100,
            metadata: {},
            created_at: now,
          });
        }
        await storage.transaction(async (tx) => {
          for (const edge of batch) await tx.associations.upsert(edge);
        });
        written += batch.length;
      }
      return storage.associations.count(ws);
    });
    console.log(
      `${engine}: ingest ${MEMORIES} memories ${(ingest.ms / 1000).toFixed(1)} s (batch endpoint); ${edges.value} associations ${(edges.ms / 1000).toFixed(1)} s (storage, transactions of 5,000)`,
    );

    const bodies: Array<[string, Record<string, unknown>]> = [
      ['spec defaults (depth 2, 100 paths, 50 nodes)', {}],
      [
        'client defaults (depth 3, 100 paths, 50 nodes)',
        { max_depth: 3, max_paths: 100, max_nodes: 50, direction: 'both', min_strength: 0 },
      ],
      ['widest (depth 5, 1,000 paths, 1,000 nodes)', { max_depth: 5, max_paths: 1000, max_nodes: 1000 }],
    ];
    for (const [label, body] of bodies) {
      const latencies: number[] = [];
      let paths = 0;
      for (let i = 0; i < TRAVERSALS; i++) {
        const { ms: took, value } = await timed(() =>
          call(url, 'POST', `/v1/memories/${pick(ids)}/traverse`, { workspace_id: ws, ...body }),
        );
        latencies.push(took);
        paths += value.total_paths;
      }
      latencies.sort((a, b) => a - b);
      console.log(
        `${engine}: traverse, ${label}: p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, max ${ms(latencies[latencies.length - 1]!)} over HTTP; mean ${(paths / TRAVERSALS).toFixed(0)} paths`,
      );
    }

    for (let run = 1; run <= 3; run++) {
      const { value, maxStallMs } = await withLoopMonitor(() =>
        timed(() => call(url, 'POST', '/v1/graph/analyze', { workspace_id: ws, top_k: 10 })),
      );
      const a = value.value;
      console.log(
        `${engine}: analyze run ${run}: ${ms(value.ms)} over HTTP (analysis ${a.analysis_ms} ms incl. loading); ${a.node_count} nodes, ${a.edge_count} edges, ` +
          `${a.summary.community_count} communities (modularity ${a.summary.modularity}), betweenness ${a.centrality.betweenness_method} (${a.centrality.betweenness_samples} sources), ` +
          `${a.summary.articulation_point_count} articulation points, ${a.summary.bridge_count} bridges; longest event-loop stall ${ms(maxStallMs)}`,
      );
    }
    const kb = await withLoopMonitor(() =>
      timed(() => call(url, 'POST', '/v1/knowledgebase/generate', { workspace_id: ws })),
    );
    const again = await timed(() => call(url, 'POST', '/v1/knowledgebase/generate', { workspace_id: ws }));
    console.log(
      `${engine}: knowledgebase (extractive) first generation ${ms(kb.value.ms)} (${kb.value.value.article_count} articles, longest stall ${ms(kb.maxStallMs)}); ` +
        `regeneration with nothing changed ${ms(again.ms)} (${again.value.changes.unchanged.length} unchanged)`,
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const engines = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['sqlite', 'postgres'];
const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
console.log(`bench:graph — ${machineLine()}, load average ${load()}`);
console.log(`command: npm run bench:graph${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`);
if (engines.includes('sqlite')) await bench('sqlite', {});
if (engines.includes('postgres')) {
  const pg = await startPglite();
  try {
    await bench('postgres (PGlite)', {
      MEMD_STORAGE: 'postgres',
      MEMD_DATABASE_URL: pg.url,
      MEMD_DATABASE_SCHEMA: freshSchema(),
      MEMD_DATABASE_POOL_SIZE: String(pg.maxConnections),
    });
  } finally {
    await pg.stop();
  }
}
console.log(`load average after: ${load()}`);
