import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from './column-types.js';

/**
 * SQLite's keyword search checks workspace and status for every match before it takes the best: a narrow index
 * over (seq, workspace_id, status) answers that from far fewer pages than the memory rows (SqliteSearchEngine.
 * keywordRanking names it). Postgres filters its keyword matches through its own indexes.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  await sql`CREATE INDEX memories_seq_scope ON memories (seq, workspace_id, status)`.execute(db);
}
