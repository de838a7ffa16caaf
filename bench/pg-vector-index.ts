/**
 * pgvector's two index kinds for the dense arm side by side (MEMD_DATABASE_VECTOR_INDEX): `npm run bench:pg-index`.
 *
 * The scale corpus's first PG_INDEX_SIZE memories (hash embedder) go into three tables of a throwaway schema: one
 * with the HNSW index memd builds (vector-index.ts: halfvec, m 16, ef_construction 64), one with IVFFlat trained
 * on them (`ivfflatLists` of the size), and one without index, which gives each question's exact nearest. Printed:
 * each index's build time; for every beam or probe count, the share of the exact PG_INDEX_K nearest (80: what
 * recall's dense arm asks for at `limit: 10`) that the index returns for the scale corpus's questions, and the
 * statement's time (round trip included), the settings alternating twice; then what inserting the next
 * PG_INDEX_INSERTS memories costs each index, a batch of 100 a statement on one connection, as the write path does.
 *
 * Environment: PG_INDEX_SIZE (100000), PG_INDEX_K (80), PG_INDEX_QUESTIONS (200), PG_INDEX_EF (100,200,400),
 * PG_INDEX_PROBES (10,20,40,80), PG_INDEX_INSERTS (3000), MEMD_BENCH_DATABASE_URL or a bench cluster (bench/postgres.ts).
 */
import pg from 'pg';
import { HashEmbeddingProvider } from '../src/providers/embedding/hash.js';
import { pgvectorBinary } from '../src/storage/postgres/search-engine.js';
import { INDEXED_VECTOR_TYPE, ivfflatLists, vectorIndexDefinition } from '../src/storage/postgres/vector-index.js';
import { ScaleCorpus } from '../test/support/scale-corpus.js';
import { loadAverages, machineLine, percentile } from './machine.js';
import { benchPostgres } from './postgres.js';

const SIZE = Number(process.env.PG_INDEX_SIZE ?? 100_000);
const K = Number(process.env.PG_INDEX_K ?? 80);
const QUESTIONS = Number(process.env.PG_INDEX_QUESTIONS ?? 200);
const EF = (process.env.PG_INDEX_EF ?? '100,200,400').split(',').map(Number);
const PROBES = (process.env.PG_INDEX_PROBES ?? '10,20,40,80').split(',').map(Number);
const INSERTS = Number(process.env.PG_INDEX_INSERTS ?? 3000);
const SCHEMA = 'bench_pg_vector_index';

const server = await benchPostgres();
const client = new pg.Client({ connectionString: server.url });
await client.connect();
const embedder = new HashEmbeddingProvider();
const D = embedder.dimensions;
const typed = `embedding::${INDEXED_VECTOR_TYPE}(${D})`;
const query = (v: Float32Array) => [pgvectorBinary(v)];
const queryTyped = `$1::vector(${D})::${INDEXED_VECTOR_TYPE}(${D})`;

console.log(`${machineLine()}; PostgreSQL: ${server.describe}; load ${loadAverages()}`);
const corpus = new ScaleCorpus(SIZE + INSERTS, { questionsPerKind: Math.ceil(QUESTIONS / 4) });
const vectors = await embedder.embed(corpus.slice(0, SIZE + INSERTS));
const asked = await embedder.embed(corpus.questions.slice(0, QUESTIONS).map((q) => q.text));

async function fill(table: string): Promise<void> {
  await client.query(`CREATE TABLE ${table} (seq bigint PRIMARY KEY, embedding vector(${D}) NOT NULL)`);
  for (let at = 0; at < SIZE; at += 1000) {
    const rows = vectors.slice(at, Math.min(at + 1000, SIZE));
    await client.query(`INSERT INTO ${table} SELECT * FROM unnest($1::bigint[], $2::vector[])`, [
      rows.map((_, i) => at + i),
      rows.map((v) => `[${Array.from(v).join(',')}]`),
    ]);
  }
}

async function timed(label: string, work: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await work();
  console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

try {
  await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; CREATE SCHEMA ${SCHEMA}`);
  await client.query(`SET search_path TO ${SCHEMA}, public; SET maintenance_work_mem = '2GB'`);
  for (const table of ['exact', 'hnsw', 'ivfflat']) await fill(table);
  await timed(`HNSW build over ${SIZE}`, () =>
    client.query(`CREATE INDEX ON hnsw ${vectorIndexDefinition('hnsw', typed, SIZE)}`),
  );
  const lists = ivfflatLists(SIZE);
  await timed(`IVFFlat build over ${SIZE}, ${lists} lists`, () =>
    client.query(`CREATE INDEX ON ivfflat ${vectorIndexDefinition('ivfflat', typed, SIZE)}`),
  );
  await client.query('VACUUM ANALYZE');

  const truth: Array<Set<number>> = [];
  for (const v of asked) {
    const { rows } = await client.query(`SELECT seq FROM exact ORDER BY embedding <=> $1::vector(${D}) LIMIT ${K}`, [
      pgvectorBinary(v),
    ]);
    truth.push(new Set(rows.map((r) => Number(r.seq))));
  }
  const settings = [
    ...EF.map((ef) => ({ label: `HNSW ef_search ${ef}`, table: 'hnsw', set: `SET hnsw.ef_search = ${ef}` })),
    ...PROBES.map((p) => ({ label: `IVFFlat probes ${p}`, table: 'ivfflat', set: `SET ivfflat.probes = ${p}` })),
  ];
  const found = new Map(settings.map((s) => [s.label, { hits: 0, ms: [] as number[] }]));
  for (let round = 0; round < 2; round++)
    for (const s of round === 0 ? settings : [...settings].reverse()) {
      await client.query(s.set);
      const own = found.get(s.label)!;
      for (const [i, v] of asked.entries()) {
        const started = performance.now();
        const { rows } = await client.query(
          `SELECT seq FROM ${s.table} ORDER BY ${typed} <=> ${queryTyped} LIMIT ${K}`,
          query(v),
        );
        own.ms.push(performance.now() - started);
        own.hits += rows.filter((r) => truth[i]!.has(Number(r.seq))).length;
      }
    }
  console.log(`\nthe exact ${K} nearest found, ${asked.length} questions asked twice:`);
  console.log('| index | found | p50 / p95 / p99 ms |\n|---|---|---|');
  for (const [label, { hits, ms }] of found) {
    const sorted = ms.sort((a, b) => a - b);
    const at = (p: number) => percentile(sorted, p).toFixed(2);
    console.log(`| ${label} | ${(hits / (2 * K * asked.length)).toFixed(3)} | ${at(50)} / ${at(95)} / ${at(99)} |`);
  }

  console.log(`\ninserting ${INSERTS} more, 100 a statement, one connection:`);
  for (const table of ['hnsw', 'ivfflat']) {
    const started = performance.now();
    for (let at = SIZE; at < SIZE + INSERTS; at += 100) {
      const rows = vectors.slice(at, Math.min(at + 100, SIZE + INSERTS));
      await client.query(`INSERT INTO ${table} SELECT * FROM unnest($1::bigint[], $2::vector[])`, [
        rows.map((_, i) => at + i),
        rows.map((v) => `[${Array.from(v).join(',')}]`),
      ]);
    }
    console.log(`${table}: ${((performance.now() - started) / INSERTS).toFixed(3)} ms a vector`);
  }
} finally {
  await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`).catch(() => undefined);
  await client.end();
  await server.stop();
}
