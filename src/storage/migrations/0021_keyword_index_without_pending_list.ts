import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from './column-types.js';

/**
 * PostgreSQL's GIN index first puts new entries in an unsorted pending list (`fastupdate`), which every search reads
 * in full until a vacuum merges it. Right after an ingest of 100,000 memories it held 5,570 entries on 123 pages,
 * and a search for every word of a question took 2.7 ms; 0.27 ms once the list was merged (EXPLAIN ANALYZE,
 * BENCHMARKS.md, "the keyword index's pending list"). During a sustained ingest the list is
 * never empty. Entries now go straight into the index, and what waits in the list is merged now. SQLite's FTS5 has
 * no such list.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`ALTER INDEX memories_search_tsv SET (fastupdate = off)`.execute(db);
  await sql`SELECT gin_clean_pending_list('memories_search_tsv'::regclass)`.execute(db);
}
