import type { Kysely } from 'kysely';

/**
 * Health and metrics count the queue by state and kind. Without an index holding both, each count read every task
 * row: 416 ms on a throwaway SQLite table of 1,000,000 tasks, on the server's main thread, at every scrape. The
 * summary read from this index alone took 70 ms on the 1,000,000-memory bench database (BENCHMARKS.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('tasks_backlog').on('tasks').columns(['status', 'kind', 'run_at']).execute();
}
