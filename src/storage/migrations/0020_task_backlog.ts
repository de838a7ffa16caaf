import type { Kysely } from 'kysely';

/**
 * Health and metrics count the queue by state and kind. Without an index holding both, each count read every task
 * row: 416 ms at 1,000,000 queued on SQLite, on the server's main thread, at every scrape. From this index alone,
 * 82 ms (both measured on a throwaway table of that size, BENCHMARKS.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('tasks_backlog').on('tasks').columns(['status', 'kind', 'run_at']).execute();
}
