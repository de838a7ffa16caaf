import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from './column-types.js';
import { readKeywordTextAgain } from './keyword-reading.js';

/**
 * The keyword index reads a memory's text as text/keyword-text.ts says: Chinese, Japanese and Korean in pairs of
 * characters, Latin letters without diacritics. `keyword_text` holds that reading where it differs from the content
 * (null for text of ASCII only). PostgreSQL's `search_tsv` is generated from it (a generated column's expression
 * cannot be altered in PostgreSQL 15: dropped with its index and added again, which rewrites the table once);
 * SQLite's FTS5 gets the memories that read otherwise again (it folded diacritics itself already).
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema.alterTable('memories').addColumn('keyword_text', 'text').execute();
  await readKeywordTextAgain(db, dialect, 'beyond ASCII');
  if (dialect !== 'postgres') return;
  await sql`ALTER TABLE memories DROP COLUMN search_tsv`.execute(db);
  await sql`ALTER TABLE memories ADD COLUMN search_tsv tsvector
    GENERATED ALWAYS AS (to_tsvector('english', coalesce(keyword_text, content))) STORED`.execute(db);
  // As migration 0021 left it: entries straight into the index, no pending list.
  await sql`CREATE INDEX memories_search_tsv ON memories USING gin (search_tsv) WITH (fastupdate = off)`.execute(db);
}

/** It rewrites the keyword text and the keyword index only. */
export const leavesVectors = true;
