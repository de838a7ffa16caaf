/**
 * Parity of answers between the two backends (issue 22 item 1): `npm run bench:parity`.
 *
 * `bench:scale` writes each backend through its own server, 4 batches in flight, with enrichment running: the two
 * databases then differ in write order (which breaks ties and decides "newest first") and in how far enrichment got,
 * so its "same top 10" measures the data as much as the code. Here both backends run in this process and get the
 * same data: the scale corpus (test/support/scale-corpus.ts) through `POST /v1/memories/batch` (Fastify's inject, no
 * socket), one batch of 100 to each in turn, with background tasks stopped before the first write, so both hold the
 * same memories written in the same order and nothing else. Then every question is asked of both through the core
 * recall call (`limit: 10`, result cache off), alternating which goes first. Printed: hit@1/5/10 per kind on each,
 * how often the two return the same top 10 (as a set; in the same order), and the engine latency of this serial,
 * in-process client (`search_latency_ms` less `query_embedding_ms`; `bench:scale` measures speed through HTTP beside
 * the enrichment backlog).
 *
 * PARITY_EXACT=1 replaces the dense search of both with one exact scan over the stored vectors (the same code for
 * both; about 100 ms a question at 100,000 memories): what is left is the parity of everything recall does with the
 * searches' answers, and the difference to the normal run is what the two approximate indexes (usearch, pgvector's
 * HNSW) contribute by proposing different neighbours. PARITY_EXACT=sqlite (or postgres) replaces that backend's only:
 * how far the other backend's index alone moves the ten.
 *
 * Environment: PARITY_SIZE (100000), PARITY_QUESTIONS (100 a kind), PARITY_EMBEDDER (hash; `local` is the default
 * model of a server), PARITY_PG_URL (a PostgreSQL server with pgvector; unset: bench/postgres.ts),
 * PARITY_DIR (/tmp/memd-bench-parity), PARITY_KEEP=1 (ask again what an earlier run wrote at this size and embedder),
 * PARITY_EXACT (1, sqlite or postgres), PARITY_SHOW_DIFF (print this many questions whose top 10 differ),
 * PARITY_TUNING (JSON merged over the recall tuning of both, e.g. `{"keywordOverfetch":8}`), PARITY_EF_SEARCH
 * (PostgreSQL's MEMD_DATABASE_EF_SEARCH),
 * PARITY_PASSES (1; more asks every question again that many times in all, alternating the backends, and prints each
 * pass's engine latencies: the first pass counts every keyword anew, later ones mostly find the counts cached),
 * PARITY_SLOWEST (print this many of the first pass's questions slowest on PostgreSQL, with both engine times),
 * PARITY_PG_INDEX (`hnsw` or `ivfflat`: PostgreSQL's vector index, in a schema and a SQLite directory of their own; unset: the default),
 * PARITY_REBUILD (1: each backend's vector index built again and every question asked again, below).
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { tunedBy, type TuningOverride } from '../src/core/recall/service.js';
import { cosine } from '../src/providers/embedding/vector.js';
import type { VectorSearchOptions } from '../src/storage/types.js';
import { QUESTION_KINDS, ScaleCorpus, type QuestionKind } from '../test/support/scale-corpus.js';
import { latencySummary, loadAverages, machineLine } from './machine.js';
import { benchPostgres } from './postgres.js';

const SIZE = Number(process.env.PARITY_SIZE ?? 100_000);
const PER_KIND = Number(process.env.PARITY_QUESTIONS ?? 100);
const EMBEDDER = process.env.PARITY_EMBEDDER ?? 'hash';
const ROOT = process.env.PARITY_DIR ?? '/tmp/memd-bench-parity';
const KEEP = process.env.PARITY_KEEP === '1';
const SHOW_DIFF = Number(process.env.PARITY_SHOW_DIFF ?? 0);
const PASSES = Number(process.env.PARITY_PASSES ?? 1);
/**
 * PARITY_REBUILD=1: after the comparison, each backend's vector index is built again from the same stored vectors
 * and every question asked again. How often a backend's top 10 survives its own index being rebuilt is the spread
 * the approximate search alone gives a pair of answers, against which the two backends' parity reads. A kept pair
 * (PARITY_KEEP) keeps the rebuilt indexes.
 */
const REBUILD = process.env.PARITY_REBUILD === '1';
const TUNING = process.env.PARITY_TUNING ? (JSON.parse(process.env.PARITY_TUNING) as TuningOverride) : null;
const WORKSPACE = 'parity';
const BATCH = 100;
const BACKENDS = ['sqlite', 'postgres'] as const;
type BackendName = (typeof BACKENDS)[number];

/** A misspelt name would label an approximate run exact: it stops the run instead. */
function exactBackends(setting: string | undefined): readonly BackendName[] {
  if (setting === '1') return BACKENDS;
  const names = (setting ?? '').split(',').filter(Boolean);
  const unknown = names.filter((name) => !(BACKENDS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`PARITY_EXACT: unknown backend ${unknown.join(', ')} (1, sqlite or postgres)`);
  return names as BackendName[];
}
/** The backends whose dense search is replaced by an exact scan (PARITY_EXACT: 1 for both, or one backend's name). */
const EXACT: readonly BackendName[] = exactBackends(process.env.PARITY_EXACT);
// The exact scan replaces a search of the open app; the rebuild opens SQLite's again, without it.
if (REBUILD && EXACT.length > 0)
  throw new Error('PARITY_REBUILD measures the approximate indexes: not with PARITY_EXACT');

const log = (line: string) => console.log(line);
const benchServer = process.env.PARITY_PG_URL ? null : await benchPostgres();
const PG_URL = process.env.PARITY_PG_URL ?? benchServer!.url;
/** PostgreSQL's vector index (MEMD_DATABASE_VECTOR_INDEX); unset: the server's default, in the schema of earlier runs. */
const PG_INDEX = process.env.PARITY_PG_INDEX || undefined;
/**
 * The pair's name: a pair written with another PostgreSQL index is another pair, with a SQLite directory and a
 * completeness marker of its own (under one PARITY_DIR, one pair's marker answered for the other's missing data).
 */
const PAIR = `${SIZE}-${EMBEDDER}${PG_INDEX ? `-${PG_INDEX}` : ''}`;
const SCHEMA = `parity_${PAIR.replaceAll('-', '_')}`;
const SQLITE_DIR = join(ROOT, `sqlite-${PAIR}`);
/** Written once both backends hold the whole corpus: PARITY_KEEP asks again only a complete pair. */
const COMPLETE = join(ROOT, `complete-${PAIR}.json`);

const corpus = new ScaleCorpus(SIZE, { questionsPerKind: PER_KIND });
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
const reuse = KEEP && existsSync(COMPLETE);
if (!reuse) {
  rmSync(SQLITE_DIR, { recursive: true, force: true });
  rmSync(COMPLETE, { force: true });
  await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
}
mkdirSync(ROOT, { recursive: true });

const common = {
  MEMD_EMBEDDING_PROVIDER: EMBEDDER,
  MEMD_RECALL_CACHE_ENTRIES: '0',
  MEMD_LOG_LEVEL: 'warn',
  MEMD_SANDBOX_SPARE: 'off',
};
const appOptions = TUNING ? { recallTuning: tunedBy(TUNING) } : {};
type App = Awaited<ReturnType<typeof createApp>>;
const openApp: Record<BackendName, () => Promise<App>> = {
  sqlite: () => createApp(loadConfig({ ...common, MEMD_DATA_DIR: SQLITE_DIR }), appOptions),
  postgres: () =>
    createApp(
      loadConfig({
        ...common,
        MEMD_DATA_DIR: join(ROOT, 'postgres-node'),
        MEMD_STORAGE: 'postgres',
        MEMD_DATABASE_URL: PG_URL,
        MEMD_DATABASE_SCHEMA: SCHEMA,
        ...(process.env.PARITY_EF_SEARCH && { MEMD_DATABASE_EF_SEARCH: process.env.PARITY_EF_SEARCH }),
        ...(PG_INDEX && { MEMD_DATABASE_VECTOR_INDEX: PG_INDEX }),
      }),
      appOptions,
    ),
};
/**
 * Warm the search indexes as a server does, then stop the task runner before it starts anything (it yields to the
 * event loop before its first task): enrichment would get to different points on the two.
 */
async function started(app: App): Promise<App> {
  await app.services.start();
  await app.services.tasks.stop();
  return app;
}
const apps: Record<BackendName, App> = {
  sqlite: await started(await openApp.sqlite()),
  postgres: await started(await openApp.postgres()),
};

log(`bench:parity — ${machineLine()}`);
log(
  `PostgreSQL: ${benchServer?.describe ?? 'PARITY_PG_URL'}; embedder ${EMBEDDER}; ${SIZE} memories; recall tuning ${TUNING ? JSON.stringify(TUNING) : 'default'}; PostgreSQL ef_search ${process.env.PARITY_EF_SEARCH ?? 'default'}, vector index ${PG_INDEX ?? 'default'}; load ${loadAverages()}`,
);

async function inject(backend: BackendName, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const response = await apps[backend].http.inject({
    method,
    url,
    headers: { 'x-workspace-id': WORKSPACE },
    ...(payload !== undefined && { payload: payload as object }),
  });
  if (response.statusCode >= 300)
    throw new Error(`${backend} ${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
  return response.json();
}

if (!reuse) {
  for (const backend of BACKENDS) await inject(backend, 'POST', '/v1/workspaces', { id: WORKSPACE, name: 'parity' });
  const spent: Record<BackendName, number> = { sqlite: 0, postgres: 0 };
  for (let at = 0; at < SIZE; at += BATCH) {
    const operations = corpus.slice(at, Math.min(at + BATCH, SIZE)).map((content) => ({ op: 'create', content }));
    for (const backend of BACKENDS) {
      const started = performance.now();
      await inject(backend, 'POST', '/v1/memories/batch', { operations });
      spent[backend] += performance.now() - started;
    }
    if ((at + BATCH) % (SIZE / 10) === 0)
      log(
        `  written ${at + BATCH}: ${BACKENDS.map((b) => `${b} ${((at + BATCH) / (spent[b] / 1000)).toFixed(0)} /s`).join(', ')}`,
      );
  }
  writeFileSync(COMPLETE, JSON.stringify({ size: SIZE, embedder: EMBEDDER, written: new Date().toISOString() }));
}

/** Every active memory's id and stored vector, read from the backend's own tables. */
async function storedVectors(backend: BackendName): Promise<{ ids: string[]; vectors: Float32Array[] }> {
  if (backend === 'postgres') {
    const { rows } = await admin.query<{ id: string; embedding: string }>(
      `SELECT m.id, v.embedding::text AS embedding FROM ${SCHEMA}.memory_vectors v JOIN ${SCHEMA}.memories m ON m.seq = v.seq WHERE m.status = 'active'`,
    );
    return { ids: rows.map((r) => r.id), vectors: rows.map((r) => Float32Array.from(JSON.parse(r.embedding))) };
  }
  const db = new Database(join(SQLITE_DIR, 'memd.sqlite'), { readonly: true });
  const rows = db
    .prepare(
      `SELECT m.id AS id, v.embedding AS embedding FROM memory_vectors v JOIN memories m ON m.seq = v.seq WHERE m.status = 'active'`,
    )
    .all() as Array<{ id: string; embedding: Buffer }>;
  db.close();
  return {
    ids: rows.map((r) => r.id),
    vectors: rows.map((r) => new Float32Array(r.embedding.buffer, r.embedding.byteOffset, r.embedding.byteLength / 4)),
  };
}

for (const backend of BACKENDS) {
  if (EXACT.includes(backend)) {
    const { ids, vectors } = await storedVectors(backend);
    const memories = apps[backend].services.storage.memories;
    const approximate = memories.vectorSearch.bind(memories);
    // Recall's dense search only (no filter beyond the workspace's active memories, which is all this corpus has):
    // duplicate checks and best-effort searches keep the index.
    memories.vectorSearch = async (workspaceId: string, vector: Float32Array, options: VectorSearchOptions) => {
      if (options.minScore !== undefined || options.bestEffort) return approximate(workspaceId, vector, options);
      const scores = vectors.map((stored) => cosine(stored, vector));
      return scores
        .map((_, i) => i)
        .sort((a, b) => scores[b]! - scores[a]!)
        .slice(0, options.k)
        .map((i) => ({ id: ids[i]!, score: scores[i]!, factOf: null }));
    };
    log(`  ${backend}: dense search replaced by an exact scan of ${ids.length} vectors`);
  }
}

for (const backend of BACKENDS) {
  const { total_count: total } = (await inject(backend, 'GET', '/v1/memories?limit=1')) as { total_count?: number };
  log(`  ${backend}: ${total ?? '?'} memories`);
}

interface Answer {
  kind: QuestionKind;
  rank: number;
  engine: number;
  top: string[];
}
/** The backends in the order question `i` asks them: which goes first alternates. */
const inTurn = (i: number) => (i % 2 === 0 ? BACKENDS : [...BACKENDS].reverse());

/** One question to one backend through the core recall call: the top 10's texts and the engine's time. */
async function ask(backend: BackendName, query: string): Promise<{ top: string[]; engine: number }> {
  const result = await apps[backend].services.recall.recall({ workspaceId: WORKSPACE, query, limit: 10 });
  return {
    top: result.memories.map((m) => m.content),
    engine: result.search_latency_ms - (result.query_embedding_ms ?? 0),
  };
}

/** Every question asked of both, alternating which goes first. */
async function askEveryQuestion(): Promise<Record<BackendName, Answer[]>> {
  const answers: Record<BackendName, Answer[]> = { sqlite: [], postgres: [] };
  for (const [i, question] of corpus.questions.entries()) {
    const right = corpus.memory(question.answer);
    for (const backend of inTurn(i)) {
      const { top, engine } = await ask(backend, question.text);
      answers[backend].push({ kind: question.kind, rank: top.indexOf(right), engine, top });
    }
  }
  return answers;
}
const sameSet = (x: readonly string[], y: readonly string[]) => [...x].sort().join('\n') === [...y].sort().join('\n');

const answers = await askEveryQuestion();

const kinds = [...QUESTION_KINDS, 'all'] as const;
const of = (backend: BackendName, kind: (typeof kinds)[number]) =>
  answers[backend].map((a, i) => ({ a, i })).filter(({ a }) => kind === 'all' || a.kind === kind);
const share = (n: number, of: number) => (of === 0 ? '—' : (n / of).toFixed(3));
log('');
log(
  `${corpus.questions.length} questions (${PER_KIND} a kind), limit 10${EXACT.length > 0 ? `, exact dense search on ${EXACT.join(' and ')}` : ''}; load ${loadAverages()}`,
);
log('| kind | SQLite hit@1 / @5 / @10 | PostgreSQL hit@1 / @5 / @10 | same top 10 as a set / in order |');
log('|---|---|---|---|');
for (const kind of kinds) {
  const hits = (backend: BackendName) => {
    const rows = of(backend, kind);
    return [1, 5, 10]
      .map((k) => share(rows.filter(({ a }) => a.rank >= 0 && a.rank < k).length, rows.length))
      .join(' / ');
  };
  const pairs = of('sqlite', kind).map(({ a, i }) => [a.top, answers.postgres[i]!.top] as const);
  const asSet = pairs.filter(([x, y]) => sameSet(x, y)).length;
  const inOrder = pairs.filter(([x, y]) => x.join('\n') === y.join('\n')).length;
  log(
    `| ${kind} | ${hits('sqlite')} | ${hits('postgres')} | ${share(asSet, pairs.length)} / ${share(inOrder, pairs.length)} |`,
  );
}
for (const backend of BACKENDS)
  log(
    `${backend}: engine p50 / p95 / p99 / mean ${latencySummary(answers[backend].map((a) => a.engine))} (in process, serial, background tasks stopped)`,
  );
if (PASSES > 1) log('engine p50 / p95 / p99 / mean by pass (pass 1 is the parity pass above; seconds since it ended):');
const askedAgainFrom = performance.now();
for (let pass = 2; pass <= PASSES; pass++) {
  const engine: Record<BackendName, number[]> = { sqlite: [], postgres: [] };
  for (const [i, question] of corpus.questions.entries())
    for (const backend of inTurn(i)) engine[backend].push((await ask(backend, question.text)).engine);
  const at = ((performance.now() - askedAgainFrom) / 1000).toFixed(0);
  log(`  pass ${pass} (${at} s): ${BACKENDS.map((b) => `${b} ${latencySummary(engine[b])}`).join('; ')}`);
}
const SLOWEST = Number(process.env.PARITY_SLOWEST ?? 0);
const slowest = answers.postgres
  .map((answer, i) => ({ answer, i }))
  .sort((x, y) => y.answer.engine - x.answer.engine)
  .slice(0, SLOWEST);
for (const { answer, i } of slowest)
  log(
    `slow on postgres: ${answer.engine.toFixed(1)} ms (sqlite ${answers.sqlite[i]!.engine.toFixed(1)}), ${answer.kind}: ${corpus.questions[i]!.text}`,
  );
let shown = 0;
for (const [i, a] of answers.sqlite.entries()) {
  const b = answers.postgres[i]!;
  if (shown >= SHOW_DIFF || sameSet(a.top, b.top)) continue;
  shown++;
  log(`differs: ${corpus.questions[i]!.text}`);
  for (const [name, top] of [
    ['sqlite', a.top],
    ['postgres', b.top],
  ] as const)
    log(`  ${name}:\n    ${top.join('\n    ')}`);
}

if (REBUILD) {
  // SQLite: the index a start builds from the stored vectors when there is no snapshot of the last stop's.
  await apps.sqlite.close();
  rmSync(join(SQLITE_DIR, 'memd.sqlite.hnsw'), { recursive: true, force: true });
  apps.sqlite = await started(await openApp.sqlite());
  // PostgreSQL: the index built anew over the table (a bulk build; a fresh pair's was built insert by insert).
  const { rows } = await admin.query<{ indexname: string }>(
    `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'memory_vectors' AND indexdef ~ 'USING (hnsw|ivfflat)'`,
    [SCHEMA],
  );
  for (const { indexname } of rows) await admin.query(`REINDEX INDEX ${SCHEMA}.${indexname}`);
  const rebuilt = await askEveryQuestion();
  log('');
  log(
    `Each backend's vector index built again (SQLite at a start without the snapshot, PostgreSQL by REINDEX of ${rows.map((r) => r.indexname).join(', ')}), every question asked again; load ${loadAverages()}`,
  );
  log(
    '| kind | same top 10 as a set: SQLite before and after | PostgreSQL before and after | SQLite and PostgreSQL after |',
  );
  log('|---|---|---|---|');
  for (const kind of kinds) {
    const rowsOf = of('sqlite', kind).map(({ i }) => i);
    const same = (x: Answer[], y: Answer[]) =>
      share(rowsOf.filter((i) => sameSet(x[i]!.top, y[i]!.top)).length, rowsOf.length);
    log(
      `| ${kind} | ${same(answers.sqlite, rebuilt.sqlite)} | ${same(answers.postgres, rebuilt.postgres)} | ${same(rebuilt.sqlite, rebuilt.postgres)} |`,
    );
  }
}

await admin.end();
for (const app of Object.values(apps)) await app.close();
await benchServer?.stop();
