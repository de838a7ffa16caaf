import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from './column-types.js';

/**
 * Atomic facts leave the SQLite keyword index: recall never keyword-searches them, and their entries (39 % of the
 * index at 164k memories) made every search read longer posting lists. Postgres leaves them out in its queries.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  await sql`DELETE FROM memory_fts WHERE rowid IN (SELECT seq FROM memories WHERE source_scope = 'fact')`.execute(db);
}
