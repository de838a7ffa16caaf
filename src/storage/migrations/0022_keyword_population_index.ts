import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from './column-types.js';

/**
 * Recall weighs a keyword by how rare it is among a workspace's active originals, so PostgreSQL counts them
 * (`keywordDocumentCount`): a node's first recall of a workspace waits for that count, and each node recounts every
 * minute of recall. Without an index naming that population the count read the whole table; with this partial index
 * it is an index-only scan once a vacuum has marked the pages visible (autovacuum does after inserts): on 100,000
 * scale-corpus memories 4.4–8.5 ms against 24–31 ms, but 33–37 ms before any vacuum (BENCHMARKS.md, "the keyword
 * population's index"). SQLite reads the count from FTS5's own statistics.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`CREATE INDEX IF NOT EXISTS memories_keyword_population ON memories (workspace_id)
    WHERE status = 'active' AND source_scope IS DISTINCT FROM 'fact'`.execute(db);
}
