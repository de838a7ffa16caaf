/**
 * Recall speed at 100,000 memories: `npm run bench:recall`.
 *
 * 1. Ingest (once; reused on reruns): synthetic varied sentences (bench/recall/corpus.ts) go through the batch
 *    endpoint of an in-process server into one workspace (duplicate checks off, so all N become memories), with
 *    the default `local` embedder behind a file cache under the bench directory, so a rerun embeds nothing again.
 *    Background enrichment (facts of multi-sentence memories, automatic links) runs to the end. Postgres gets a
 *    copy of the SQLite rows (see copyToPostgres), so SQLite runs first.
 * 2. Measure: the real server (`dist/src/main.js`, as `npm start` runs it; result cache off) starts as a child process
 *    on that database. Reported: time to listen and to be ready (search index built, or loaded from the snapshot of
 *    the last clean stop and checked against the database), RSS;
 *    then the questions twice through POST /v1/memories/recall: pass 1 embeds every query with the `local` model
 *    (end to end, as a client sees it), pass 2 repeats them with the query vectors in the server's LRU, so
 *    `search_latency_ms` is the engine alone.
 * 3. ANN quality (SQLite): recall@10 of the server's HNSW index (usearch, identical vectors as one node) against
 *    exact search over the same vectors, for several builds of the default index parameters and alternatives
 *    (RECALL_BENCH_ANN=all), with build and search times.
 *
 * Environment: RECALL_BENCH_MEMORIES (100000), RECALL_BENCH_QUERIES (1000), RECALL_BENCH_DIR
 * (/tmp/memd-bench-recall), RECALL_BENCH_BACKENDS (sqlite,postgres), RECALL_BENCH_ANN (default | all | none),
 * RECALL_BENCH_ANN_BUILDS (3: builds of the default index measured), RECALL_BENCH_COLD=1 (SQLite: delete the HNSW
 * snapshot of the last stop first, so that the server builds the index).
 * RECALL_BENCH_BEFORE=<a checkout of older code, built>: SQLite only, the two versions in one run. The database must
 * have been ingested by the older code (a newer build migrates a database forward, which an older one then refuses):
 * run the bench from that checkout first with the same RECALL_BENCH_DIR. Each version gets its own copy of it, starts
 * once to settle (migrations, index snapshot), then the versions are measured in turn, RECALL_BENCH_ROUNDS (2) times.
 * Postgres is a real server (bench/postgres.ts: a throwaway durable cluster with the settings of
 * docs/postgres-tuning.md, or MEMD_BENCH_DATABASE_URL), filled by copying the SQLite run's memories.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import usearch from 'usearch';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { mentionsOf } from '../src/core/memories/mentioned-dates.js';
import { DENSE_ASKED_PER_DEPTH, DENSE_KEPT_PER_DEPTH } from '../src/core/recall/arms.js';
import { armDepth, DEFAULT_TUNING } from '../src/core/recall/service.js';
import { LocalEmbeddingProvider } from '../src/providers/embedding/local.js';
import { cosine } from '../src/providers/embedding/vector.js';
import { openPostgresStorage } from '../src/storage/postgres/open.js';
import { benchPostgres, type BenchPostgres } from './postgres.js';
import { openSqliteStorage } from '../src/storage/sqlite/open.js';
import {
  DEFAULT_VECTOR_INDEX,
  WorkspaceVectorIndexes,
  type VectorIndexOptions,
} from '../src/storage/sqlite/vector-index.js';
import { vectorDigest } from '../src/storage/sqlite/workspace-index.js';
import { machineLine, peakRssMiB, percentile } from './machine.js';
import { DiskCachedEmbedder } from './recall/cached-embedder.js';
import { startBenchServer, waitReady } from './server-process.js';
import { memories, questions } from './recall/corpus.js';

const N = Number(process.env.RECALL_BENCH_MEMORIES ?? 100_000);
const QUERIES = Number(process.env.RECALL_BENCH_QUERIES ?? 1_000);
const ROOT = process.env.RECALL_BENCH_DIR ?? '/tmp/memd-bench-recall';
const BACKENDS = (process.env.RECALL_BENCH_BACKENDS ?? 'sqlite,postgres').split(',').map((b) => b.trim());
const ANN = process.env.RECALL_BENCH_ANN ?? 'default';
// Builds on two threads differ from one another: one build is not evidence of the index's recall.
const ANN_BUILDS = Number(process.env.RECALL_BENCH_ANN_BUILDS ?? 3);
const COLD = process.env.RECALL_BENCH_COLD === '1';
const BEFORE = process.env.RECALL_BENCH_BEFORE;
const ROUNDS = Number(process.env.RECALL_BENCH_ROUNDS ?? 2);
const WORKSPACE = 'bench';
const BATCH = 1_000;
mkdirSync(ROOT, { recursive: true });

const log = (line: string) => console.log(line);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** N distinct texts (the generator repeats itself now and then). */
function corpus(count: number): string[] {
  const seen = new Set<string>();
  for (let seed = 42; seen.size < count; seed++)
    for (const text of memories(count, seed)) if (seen.size < count) seen.add(text);
  return [...seen];
}

function percentiles(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => percentile(sorted, p).toFixed(2);
  return `p50 ${at(50)}  p95 ${at(95)}  p99 ${at(99)}  max ${sorted.at(-1)!.toFixed(2)}`;
}

async function json<T = any>(url: string, body?: unknown): Promise<T> {
  const response = await fetch(
    url,
    body === undefined
      ? {}
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  const value = (await response.json()) as T;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(value).slice(0, 500)}`);
  return value;
}

function cachedEmbedder(): DiskCachedEmbedder {
  return new DiskCachedEmbedder(
    new LocalEmbeddingProvider({ model: undefined, workers: 2 }),
    join(ROOT, 'vectors-use-lite.bin'),
  );
}

/** Step 1: everything into one workspace through the batch endpoint, then background enrichment to the end. */
async function ingest(env: Record<string, string>, texts: string[]): Promise<void> {
  const embedder = cachedEmbedder();
  const config = loadConfig({ ...env, MEMD_PORT: '0', MEMD_LOG_LEVEL: 'warn' });
  const app = await createApp(config, { embedder });
  const url = await app.listen(0);
  await app.ready();
  log(`  ingest: ${embedder.size} vectors cached in ${join(ROOT, 'vectors-use-lite.bin')}`);
  await json(`${url}/v1/workspaces`, { id: WORKSPACE, name: 'speed bench', settings: { deduplication: false } });
  const started = performance.now();
  for (let at = 0; at < texts.length; at += BATCH) {
    const operations = texts.slice(at, at + BATCH).map((content) => ({ op: 'create', content }));
    const result = await json<{ failed: number }>(`${url}/v1/memories/batch`, { workspace_id: WORKSPACE, operations });
    if (result.failed > 0) throw new Error(`batch at ${at}: ${result.failed} failed`);
    if ((at / BATCH) % 10 === 9)
      log(`  ingest: ${at + BATCH} memories, ${seconds(performance.now() - started)}, ${embedder.computed} embedded`);
  }
  for (;;) {
    const counts = await app.services.storage.tasks.counts(new Date().toISOString());
    if (counts.pending + counts.running === 0) break;
    log(`  enrichment: ${counts.pending} tasks pending, ${seconds(performance.now() - started)}`);
    await sleep(15_000);
  }
  const total = await app.services.storage.memories.count(WORKSPACE, {});
  const edges = await app.services.storage.associations.count(WORKSPACE);
  log(
    `  ingest done in ${seconds(performance.now() - started)}: ${total} memories (facts included), ${edges} associations; ${embedder.computed} texts embedded this run`,
  );
  await app.close();
}

/** Step 2: the real server as a child process; start-up, RSS, and the questions twice. */
async function measure(env: Record<string, string>, qs: string[], root?: string): Promise<void> {
  // SQLite loads the HNSW snapshot its last clean stop wrote (the ingest's, or the previous run's) and checks it.
  const snapshot = env.MEMD_STORAGE ? null : join(env.MEMD_DATA_DIR!, 'memd.sqlite.hnsw');
  if (snapshot && COLD) rmSync(snapshot, { recursive: true, force: true });
  const warmUp =
    snapshot === null ? 'pgvector index' : existsSync(snapshot) ? 'HNSW snapshot loaded and checked' : 'HNSW built';
  const started = performance.now();
  const server = await startBenchServer({ ...env, MEMD_RECALL_CACHE_ENTRIES: '0' }, root);
  const base = server.url;
  try {
    const listening = performance.now();
    await waitReady(base);
    const ready = performance.now();
    log(
      `  start: listening after ${seconds(listening - started)} (process, database, embedding model), ready after ${seconds(ready - started)} (${warmUp}: ${seconds(ready - listening)}); peak RSS ${await peakRssMiB(server.pid)} MiB`,
    );
    const passes: Array<{ name: string; texts: string[] }> = [
      { name: 'end to end (query embedded by the local model)', texts: qs },
      { name: 'engine (query vector from the server LRU)', texts: qs },
    ];
    for (const pass of passes) {
      const client: number[] = [];
      const server: number[] = [];
      const engine: number[] = [];
      const embedding: number[] = [];
      let results = 0;
      for (const query of pass.texts) {
        const t = performance.now();
        const body = await json<{ memories: unknown[]; search_latency_ms: number; query_embedding_ms: number }>(
          `${base}/v1/memories/recall`,
          { workspace_id: WORKSPACE, query },
        );
        client.push(performance.now() - t);
        server.push(body.search_latency_ms);
        embedding.push(body.query_embedding_ms);
        engine.push(body.search_latency_ms - body.query_embedding_ms);
        results += body.memories.length;
      }
      log(`  ${pass.name}, ${pass.texts.length} queries, ${(results / pass.texts.length).toFixed(1)} results each:`);
      log(`    engine (search_latency_ms - query_embedding_ms)  ${percentiles(engine)} ms`);
      log(`    query embedding (query_embedding_ms)             ${percentiles(embedding)} ms`);
      log(`    server total (search_latency_ms)                 ${percentiles(server)} ms`);
      log(`    client (HTTP round trip)                         ${percentiles(client)} ms`);
    }
    log(`  peak RSS after the queries: ${await peakRssMiB(server.pid)} MiB`);
  } finally {
    await server.stop();
  }
}

/** Distinct vectors among `rows`: the nodes of the index's graph, which holds identical vectors once. */
function distinctVectors(rows: ReadonlyArray<{ embedding: Float32Array }>): number {
  return new Set(rows.map((r) => vectorDigest(r.embedding))).size;
}

/**
 * Step 3: the index the server builds (WorkspaceVectorIndexes, fed as warm-up feeds it) against exact search, on the
 * vectors of the SQLite database. A true neighbour counts as found when what is kept holds it, or holds another
 * memory with the very same vector (exact search picks among identical vectors arbitrarily, and so does the index):
 * the count is of kept memories as near as the exact 10th, at most 10 a query.
 */
async function annQuality(dataDir: string, qs: string[]): Promise<void> {
  const storage = await openSqliteStorage({ path: join(dataDir, 'memd.sqlite'), dimensions: 512 });
  const rows: Array<{ seq: number; embedding: Float32Array }> = [];
  for (let after = 0; ; ) {
    const page = await storage.memories.scan(WORKSPACE, after, 5_000, { statuses: ['active'] });
    if (page.length === 0) break;
    for (const r of page) if (r.embedding) rows.push({ seq: r.seq, embedding: r.embedding });
    after = page.at(-1)!.seq;
  }
  await storage.close();
  const dims = 512;
  const dataset = new Float32Array(rows.length * dims);
  rows.forEach((r, i) => {
    dataset.set(r.embedding, i * dims);
  });
  const vectorOfSeq = new Map(rows.map((r) => [r.seq, r.embedding]));
  const embedder = cachedEmbedder();
  await embedder.init();
  const queryVectors = await embedder.embed(qs);
  await embedder.close();
  const queries = new Float32Array(qs.length * dims);
  queryVectors.forEach((v, i) => {
    queries.set(v, i * dims);
  });
  // exactSearch answers with row offsets into the dataset. The 10th's similarity is recomputed with the function
  // that judges the index's answers, so identical vectors compare equal.
  const exact = usearch.exactSearch(dataset, queries, dims, 10, usearch.MetricKind.Cos, 2) as unknown as {
    keys: BigUint64Array;
  };
  const truth = queryVectors.map((query, i) => {
    const seqs = Array.from(exact.keys.subarray(i * 10, i * 10 + 10), (k) => rows[Number(k)]!.seq);
    return { seqs: new Set(seqs), tenth: Math.min(...seqs.map((seq) => cosine(query, vectorOfSeq.get(seq)!))) };
  });
  const configs: Array<Omit<VectorIndexOptions, 'dimensions'>> =
    ANN === 'all'
      ? [
          DEFAULT_VECTOR_INDEX,
          { ...DEFAULT_VECTOR_INDEX, quantization: 'f32' },
          { ...DEFAULT_VECTOR_INDEX, quantization: 'i8' },
          { ...DEFAULT_VECTOR_INDEX, connectivity: 8 },
          { ...DEFAULT_VECTOR_INDEX, connectivity: 32 },
          { ...DEFAULT_VECTOR_INDEX, expansionSearch: 48 },
          { ...DEFAULT_VECTOR_INDEX, expansionSearch: 192 },
          { ...DEFAULT_VECTOR_INDEX, expansionAdd: 64 },
        ]
      : [
          ...Array.from({ length: ANN_BUILDS }, () => DEFAULT_VECTOR_INDEX),
          { ...DEFAULT_VECTOR_INDEX, quantization: 'f32' },
        ];
  log(
    `  ${rows.length} vectors (${distinctVectors(rows)} distinct), ${qs.length} queries; recall@10 against exact search (usearch exactSearch)`,
  );
  for (const config of configs) {
    const index = new WorkspaceVectorIndexes({ ...config, dimensions: dims });
    const buildStarted = performance.now();
    // In warm-up's pages, on all cores.
    for (let at = 0; at < rows.length; at += 2_000) {
      index.upsert(
        WORKSPACE,
        rows.slice(at, at + 2_000).map((r) => ({ ...r, id: String(r.seq), derived: false, factOf: null })),
      );
    }
    const buildMs = performance.now() - buildStarted;
    // What recall's dense arm asks the index for at the default limit of 10, and the best of them it keeps to
    // rank with the other evidence: the true top 10 has to be among those kept.
    // (200 asked, 100 kept: what it asked before 2026-11-25, for comparison.)
    const depth = armDepth(DEFAULT_TUNING, 10);
    const recallAsks = [DENSE_ASKED_PER_DEPTH * depth, DENSE_KEPT_PER_DEPTH * depth] as const;
    const settings = [[10, 10], [100, 100], [200, 100], recallAsks].filter(
      (s, i, all) => all.findIndex((t) => t[0] === s[0] && t[1] === s[1]) === i,
    );
    for (const [wanted, kept] of settings) {
      let found = 0;
      let foundBySeq = 0;
      const times: number[] = [];
      const errors: number[] = [];
      for (let i = 0; i < qs.length; i++) {
        const query = queryVectors[i]!;
        const t = performance.now();
        const [result] = index.search(WORKSPACE, [query], wanted);
        times.push(performance.now() - t);
        const keptHits = result!.slice(0, kept);
        const similarities = keptHits.map((hit) => cosine(query, vectorOfSeq.get(hit.seq)!));
        found += Math.min(10, similarities.filter((similarity) => similarity >= truth[i]!.tenth).length);
        foundBySeq += keptHits.filter((hit) => truth[i]!.seqs.has(hit.seq)).length;
        keptHits.slice(0, 10).forEach((hit, j) => {
          errors.push(Math.abs(hit.similarity - similarities[j]!));
        });
      }
      errors.sort((a, b) => a - b);
      log(
        `  ${config.quantization} M=${config.connectivity} ef_add=${config.expansionAdd} ef_search=${config.expansionSearch}: build ${seconds(buildMs)} (2 threads); ` +
          `${wanted} candidates, best ${kept} kept: recall@10 ${(found / (qs.length * 10)).toFixed(4)} (by memory id ${(foundBySeq / (qs.length * 10)).toFixed(4)}), search ${percentiles(times)} ms; ` +
          `similarity error of the top 10 p50 ${percentile(errors, 50).toFixed(4)}, p99 ${percentile(errors, 99).toFixed(4)}, max ${errors.at(-1)!.toFixed(4)}`,
      );
    }
    index.clear();
  }
}

/**
 * Postgres gets the very rows of the SQLite database (memories with their vectors and facts, associations, the
 * embedder identity), copied through the storage layer: re-running the write pipeline inside WASM Postgres would
 * take hours and measure PGlite's write path, not recall. The HNSW index is built by the server's start.
 */
async function copyToPostgres(sqliteDir: string, url: string): Promise<void> {
  const started = performance.now();
  const source = await openSqliteStorage({ path: join(sqliteDir, 'memd.sqlite'), dimensions: 512 });
  const target = await openPostgresStorage({ url, poolSize: 1, dimensions: 512 });
  const workspace = (await source.workspaces.get(WORKSPACE))!;
  await target.workspaces.create(workspace);
  for (const context of await source.contexts.list(WORKSPACE)) await target.contexts.create(context);
  await target.meta.set('embedder', (await source.meta.get('embedder'))!);
  let copied = 0;
  for (let after = 0; ; ) {
    const page = await source.memories.scan(WORKSPACE, after, 1_000);
    if (page.length === 0) break;
    await target.transaction((tx) =>
      tx.memories.insert(page.map((r) => ({ ...r.memory, embedding: r.embedding!, mentions: mentionsOf(r.memory) }))),
    );
    copied += page.length;
    after = page.at(-1)!.seq;
    if (copied % 20_000 < 1_000) log(`  copy: ${copied} memories, ${seconds(performance.now() - started)}`);
  }
  let edges = 0;
  for (let after: string | null = null; ; ) {
    const page = await source.associations.scan(WORKSPACE, after, 1_000);
    if (page.length === 0) break;
    await target.sqlContext.db
      .insertInto('associations')
      .values(page.map((a) => ({ ...a, metadata: JSON.stringify(a.metadata) })))
      .execute();
    edges += page.length;
    after = page.at(-1)!.id;
  }
  // A bulk load leaves the planner's statistics describing empty tables until autovacuum comes by: without them
  // it chose an exact scan of every vector over the HNSW index, 1.75 s a search.
  await sql`ANALYZE`.execute(target.sqlContext.db);
  log(`  copied ${copied} memories and ${edges} associations from SQLite in ${seconds(performance.now() - started)}`);
  await source.close();
  await target.close();
}

/** The older build and this one on copies of one ingested SQLite database, measured in turn (RECALL_BENCH_BEFORE). */
async function compareVersions(before: string, dir: string, qs: string[]): Promise<void> {
  if (!existsSync(join(dir, 'ingested')))
    throw new Error(`${dir} holds no ingested database: run this bench from ${before} first`);
  const versions = [
    { name: `before (${before})`, root: before, dir: `${dir}.before` },
    { name: 'this checkout', root: undefined, dir: `${dir}.now` },
  ];
  for (const version of versions) {
    rmSync(version.dir, { recursive: true, force: true });
    cpSync(dir, version.dir, { recursive: true });
    const settling = await startBenchServer({ MEMD_DATA_DIR: version.dir }, version.root);
    await waitReady(settling.url);
    await settling.stop();
  }
  for (let round = 1; round <= ROUNDS; round++) {
    for (const version of versions) {
      log(
        `\n  -- round ${round}: ${version.name}, load ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
      );
      await measure({ MEMD_DATA_DIR: version.dir }, qs, version.root);
    }
  }
}

log(
  `machine: ${machineLine()}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
log(`${N} memories, ${QUERIES} queries, backends ${BACKENDS.join(', ')}, data under ${ROOT}`);
const texts = corpus(N);
const qs = questions(QUERIES);
for (const backend of BACKENDS) {
  log(`\n== ${backend}`);
  const dir = join(ROOT, `${backend}-${N}`);
  mkdirSync(dir, { recursive: true });
  const marker = join(dir, 'ingested');
  let pg: BenchPostgres | null = null;
  let env: Record<string, string>;
  if (backend === 'postgres') {
    pg = await benchPostgres();
    log(`  PostgreSQL: ${pg.describe}`);
    env = { MEMD_DATA_DIR: dir, MEMD_STORAGE: 'postgres', MEMD_DATABASE_URL: pg.url };
  } else {
    env = { MEMD_DATA_DIR: dir };
  }
  try {
    // A throwaway cluster starts empty every run; the SQLite database is kept between runs.
    if (backend === 'postgres' || !existsSync(marker)) {
      if (backend === 'postgres') await copyToPostgres(join(ROOT, `sqlite-${N}`), pg!.url);
      else await ingest(env, texts);
      writeFileSync(marker, new Date().toISOString());
    } else log(`  reusing the ingested database (${readFileSync(marker, 'utf8')})`);
    if (BEFORE && backend === 'sqlite') await compareVersions(BEFORE, dir, qs);
    else await measure(env, qs);
    if (backend === 'sqlite' && ANN !== 'none') await annQuality(dir, qs);
  } finally {
    await pg?.stop();
  }
}
log(
  `\nload after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
