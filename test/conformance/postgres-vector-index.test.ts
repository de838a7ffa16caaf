import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgresStorage } from '../../src/storage/postgres/open.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import { freshSchema, indexScanCount } from '../support/postgres.js';
import { memory, seededVector, workspace } from '../support/records.js';
import { testDatabaseUrl } from '../support/test-database.js';

/**
 * PostgreSQL's HNSW index holds the vectors in half precision (`halfvec`), the stored column full precision; a start
 * replaces the full-precision index of earlier versions rather than keeping both (every insert would feed two graphs).
 */
const DIMENSIONS = 16;
let storage: SqlStorage;

const vectorIndexes = async (): Promise<string[]> =>
  (
    await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes
      WHERE tablename = 'memory_vectors' AND indexname LIKE 'memory_vectors_hnsw%' AND schemaname = current_schema()
      ORDER BY indexname`.execute(storage.sqlContext.db)
  ).rows.map((r) => r.name);

beforeAll(async () => {
  storage = await openPostgresStorage({
    url: testDatabaseUrl(),
    poolSize: 1,
    dimensions: DIMENSIONS,
    schema: freshSchema(),
  });
  await storage.workspaces.create(workspace('ws'));
});
afterAll(() => storage.close());

it('replaces an earlier full-precision index with the half-precision one at start', async () => {
  // What versions before the half-precision index built at start.
  await sql`CREATE INDEX memory_vectors_hnsw_16 ON memory_vectors
    USING hnsw ((embedding::vector(16)) vector_cosine_ops)`.execute(storage.sqlContext.db);
  expect(await vectorIndexes()).toEqual(['memory_vectors_hnsw_16']);

  await storage.engine.warmUp(storage.sqlContext.db);
  expect(await vectorIndexes()).toEqual(['memory_vectors_hnsw_half_16']);
  const { rows } = await sql<{ definition: string }>`SELECT indexdef AS definition FROM pg_indexes
    WHERE indexname = 'memory_vectors_hnsw_half_16' AND schemaname = current_schema()`.execute(storage.sqlContext.db);
  expect(rows[0]?.definition).toContain('halfvec_cosine_ops');

  // A second start finds it built and keeps it.
  await storage.engine.warmUp(storage.sqlContext.db);
  expect(await vectorIndexes()).toEqual(['memory_vectors_hnsw_half_16']);
});

it('searches the half-precision index, recall and near-neighbour searches alike', async () => {
  const written = Array.from({ length: 400 }, (_, i) => memory('ws', `memory ${i}`, seededVector(DIMENSIONS, i)));
  await storage.memories.insert(written);
  const db = storage.sqlContext.db;
  // One connection (poolSize 1) on which a scan and a sort are the last resort: the nearest rows then come from the
  // HNSW index if the statement's distance is the index's expression, else from a sort that leaves its count alone.
  await sql`ANALYZE memories, memory_vectors`.execute(db);
  await sql`SET enable_seqscan = off; SET enable_sort = off`.execute(db);
  const indexScans = () => indexScanCount(db, 'memory_vectors_hnsw_half_16');
  const asked = written.slice(0, 20);
  const vectors = asked.map((m) => m.embedding!);

  for (const options of [{ k: 3 }, { k: 3, minScore: 0.9 }]) {
    const before = await indexScans();
    const found = await storage.memories.vectorSearchMany('ws', vectors, options);
    // Each vector finds its own memory first, at a similarity within half precision's error of 1.
    found.forEach((hits, i) => {
      expect(hits[0]?.id).toBe(asked[i]!.id);
      expect(hits[0]!.score).toBeCloseTo(1, 3);
    });
    await expect.poll(indexScans, { timeout: 5_000 }).toBeGreaterThanOrEqual(before + asked.length);
  }

  const stored = await storage.memories.getEmbeddings('ws', [asked[0]!.id]);
  expect(Array.from(stored.get(asked[0]!.id)!)).toEqual(Array.from(asked[0]!.embedding!));
});
