import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgresStorage } from '../../src/storage/postgres/open.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import { FACT_SCOPE } from '../../src/storage/types.js';
import { freshSchema, indexScanCount } from '../support/postgres.js';
import { axisVector, memory, workspace } from '../support/records.js';
import { testDatabaseUrl } from '../support/test-database.js';

/**
 * PostgreSQL's keyword index takes new entries without a pending list (migration 0021): a list that every search
 * reads in full made an all-words search ten times slower after an ingest (BENCHMARKS.md).
 */
let storage: SqlStorage;

beforeAll(async () => {
  storage = await openPostgresStorage({ url: testDatabaseUrl(), poolSize: 2, dimensions: 8, schema: freshSchema() });
  await storage.workspaces.create(workspace('ws'));
});
afterAll(() => storage.close());

it('writes keyword entries straight into the index, where a search finds them at once', async () => {
  const { rows } = await sql<{ options: string[] | null }>`SELECT reloptions AS options FROM pg_class
    WHERE oid = 'memories_search_tsv'::regclass`.execute(storage.sqlContext.db);
  expect(rows[0]?.options ?? []).toContain('fastupdate=off');

  const written = Array.from({ length: 200 }, (_, i) =>
    memory('ws', `Entry ${i} names the ${i % 2 === 0 ? 'heron' : 'kestrel'} of the marsh`, axisVector(8, i % 8)),
  );
  await storage.memories.insert(written);
  const found = await storage.memories.keywordSearch('ws', ['kestrel'], { k: 500 });
  expect(found).toHaveLength(100);
});

it('searches the vector index with the configured beam on every connection (MEMD_DATABASE_EF_SEARCH)', async () => {
  const beam = async (of: SqlStorage) =>
    (await sql<{ beam: string }>`SELECT current_setting('hnsw.ef_search') AS beam`.execute(of.sqlContext.db)).rows[0]
      ?.beam;
  expect(await beam(storage)).toBe('100');
  const wider = await openPostgresStorage({
    url: testDatabaseUrl(),
    poolSize: 1,
    dimensions: 8,
    schema: freshSchema(),
    efSearch: 400,
  });
  try {
    expect(await beam(wider)).toBe('400');
  } finally {
    await wider.close();
  }
});

it('counts the keyword population (active originals of a workspace) from its own index', async () => {
  // One connection on which a table scan is the last resort: the count moves the index's scan count only if the
  // statement's conditions are the index's predicate (migration 0022).
  const counter = await openPostgresStorage({
    url: testDatabaseUrl(),
    poolSize: 1,
    dimensions: 8,
    schema: freshSchema(),
  });
  try {
    const db = counter.sqlContext.db;
    await counter.workspaces.create(workspace('ws'));
    const originals = Array.from({ length: 30 }, (_, i) => memory('ws', `original ${i}`, axisVector(8, i)));
    const facts = originals
      .slice(0, 5)
      .map((m, i) => memory('ws', `fact ${i}`, axisVector(8, i), { source_scope: FACT_SCOPE, source_memory_id: m.id }));
    await counter.memories.insert([...originals, ...facts]);
    await sql`SET enable_seqscan = off; SET enable_bitmapscan = off`.execute(db);
    const indexScans = () => indexScanCount(db, 'memories_keyword_population');
    const before = await indexScans();
    expect(await counter.memories.keywordDocumentCount('ws')).toBe(30);
    await expect.poll(indexScans, { timeout: 5_000 }).toBeGreaterThan(before);
  } finally {
    await counter.close();
  }
});
