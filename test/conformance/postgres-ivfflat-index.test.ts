import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgresStorage } from '../../src/storage/postgres/open.js';
import type { PostgresSearchEngine } from '../../src/storage/postgres/search-engine.js';
import { ivfflatLists } from '../../src/storage/postgres/vector-index.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import { freshSchema, indexScanCount } from '../support/postgres.js';
import { memory, seededVector, workspace } from '../support/records.js';
import { testDatabaseUrl } from '../support/test-database.js';

/**
 * MEMD_DATABASE_VECTOR_INDEX=ivfflat: the index is built at start on what the table holds (nothing, in a new
 * database), retrained in the background once the table has grown enough to call for twice the lists, and searched
 * like the HNSW one; a start with the other setting replaces it.
 */
const DIMENSIONS = 16;
const ROWS = 2_000;
const schema = freshSchema();
let storage: SqlStorage;

const open = (vectorIndex: 'hnsw' | 'ivfflat') =>
  openPostgresStorage({ url: testDatabaseUrl(), poolSize: 2, dimensions: DIMENSIONS, schema, vectorIndex });

/** Every vector index of the schema, with its options (`lists=…` for IVFFlat). */
const vectorIndexes = async (): Promise<string[]> =>
  (
    await sql<{ name: string; options: string[] | null }>`SELECT c.relname AS name, c.reloptions AS options
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE t.relname = 'memory_vectors' AND n.nspname = ${schema} AND c.relname NOT LIKE '%pkey' AND c.relname <> 'memory_vectors_ws'
      ORDER BY c.relname`.execute(storage.sqlContext.db)
  ).rows.map((r) => `${r.name} ${(r.options ?? []).filter((o) => o.startsWith('lists=')).join(',')}`.trim());

beforeAll(async () => {
  storage = await open('ivfflat');
  await storage.workspaces.create(workspace('ws'));
});
afterAll(() => storage.close());

it('builds the index at start, retrains it as the table grows, and searches it', async () => {
  await storage.engine.warmUp(storage.sqlContext.db);
  expect(await vectorIndexes()).toEqual(['memory_vectors_ivfflat_half_16 lists=1']);

  const written = Array.from({ length: ROWS }, (_, i) => memory('ws', `memory ${i}`, seededVector(DIMENSIONS, i)));
  for (let at = 0; at < ROWS; at += 100) await storage.memories.insert(written.slice(at, at + 100));
  // The writes crossed two lists' worth of rows (and again twice that): a retraining runs in the background, on
  // the rows the table held when it counted them.
  await expect.poll(vectorIndexes, { timeout: 20_000 }).not.toEqual(['memory_vectors_ivfflat_half_16 lists=1']);
  // A later one may still be building beside it, or be due (when the table grew while one was building): once
  // they are done, one more pass leaves a single index trained for the table, and the next finds nothing to do.
  const training = (storage.engine as PostgresSearchEngine).training!;
  await training.settle();
  await training.retrain();
  const [trained] = await vectorIndexes();
  const lists = Number(trained!.split('lists=')[1]);
  expect(await vectorIndexes()).toEqual([`memory_vectors_ivfflat_half_16 lists=${lists}`]);
  expect(2 * lists).toBeGreaterThan(ivfflatLists(ROWS));
  expect(await training.retrain()).toBe('current');

  const db = storage.sqlContext.db;
  await sql`ANALYZE memories, memory_vectors`.execute(db);
  const asked = written.slice(0, 20);
  // Recall's search and the write path's near-neighbour search (its narrower probes set in its transaction).
  for (const options of [{ k: 3 }, { k: 3, minScore: 0.9 }]) {
    const before = await indexScanCount(db, 'memory_vectors_ivfflat_half_16');
    const found = await storage.memories.vectorSearchMany(
      'ws',
      asked.map((m) => m.embedding!),
      options,
    );
    found.forEach((hits, i) => {
      expect(hits[0]?.id).toBe(asked[i]!.id);
      expect(hits[0]!.score).toBeCloseTo(1, 3);
    });
    // The counters of the index's scans reach the statistics views a moment later.
    await expect
      .poll(() => indexScanCount(db, 'memory_vectors_ivfflat_half_16'), { timeout: 5_000 })
      .toBeGreaterThan(before);
  }
});

it('leaves the retraining to the node that holds the schema lock', async () => {
  const other = new pg.Client({ connectionString: testDatabaseUrl() });
  await other.connect();
  try {
    await other.query(`SET search_path TO ${pg.escapeIdentifier(schema)}, public`);
    await other.query(`SELECT pg_advisory_lock(hashtextextended(current_schema() || ' memd vector index', 0))`);
    expect(await (storage.engine as PostgresSearchEngine).training!.retrain()).toBe('busy');
  } finally {
    await other.end();
  }
});

it('a start with the HNSW setting replaces the IVFFlat index', async () => {
  await storage.close();
  storage = await open('hnsw');
  await storage.engine.warmUp(storage.sqlContext.db);
  expect(await vectorIndexes()).toEqual(['memory_vectors_hnsw_half_16']);
});
