import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgresStorage } from '../../src/storage/postgres/open.js';
import { FIRST_ANALYZE_AFTER_ROWS } from '../../src/storage/postgres/planner-statistics.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import { freshSchema } from '../support/postgres.js';
import { memory, seededVector, workspace } from '../support/records.js';
import { testDatabaseUrl } from '../support/test-database.js';

/**
 * A new database gathers the planner's statistics of its memory tables once they hold enough rows, without waiting
 * for autovacuum: without them a vector search read and sorted the whole workspace (src/storage/postgres/planner-statistics.ts).
 */
let storage: SqlStorage;

beforeAll(async () => {
  storage = await openPostgresStorage({ url: testDatabaseUrl(), poolSize: 2, dimensions: 8, schema: freshSchema() });
  await storage.workspaces.create(workspace('ws'));
});
afterAll(() => storage.close());

/** When memd itself last analyzed the table (autovacuum's analyses are kept apart, in last_autoanalyze). */
async function lastAnalyzed(table: string): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | null }>`
    SELECT last_analyze AS at FROM pg_stat_user_tables WHERE relid = ${table}::regclass`.execute(storage.sqlContext.db);
  return rows[0]?.at ?? null;
}

function memories(from: number, count: number) {
  return Array.from({ length: count }, (_, i) =>
    memory('ws', `memory ${from + i} of the statistics test`, seededVector(8, from + i)),
  );
}

it('analyzes the memory tables once the first thousand rows are written, not before', async () => {
  await storage.memories.insert(memories(0, FIRST_ANALYZE_AFTER_ROWS - 1));
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await lastAnalyzed('memory_vectors')).toBeNull();

  await storage.memories.insert(memories(FIRST_ANALYZE_AFTER_ROWS, 1));
  const deadline = Date.now() + 10_000;
  while ((await lastAnalyzed('memory_vectors')) === null && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await lastAnalyzed('memory_vectors')).not.toBeNull();
  expect(await lastAnalyzed('memories')).not.toBeNull();
  const { rows } = await sql<{ tuples: number }>`
    SELECT reltuples::float8 AS tuples FROM pg_class WHERE oid = 'memory_vectors'::regclass`.execute(
    storage.sqlContext.db,
  );
  expect(rows[0]?.tuples).toBe(FIRST_ANALYZE_AFTER_ROWS);
});
