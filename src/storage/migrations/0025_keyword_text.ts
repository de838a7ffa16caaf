import { sql, type Kysely } from 'kysely';
import { keywordTextIfOther } from '../../text/keyword-text.js';
import type { SqlDialect } from './column-types.js';

/** Rows read and rewritten at a time. */
const PAGE = 500;

/**
 * The keyword index reads a memory's text as text/keyword-text.ts says: Chinese, Japanese and Korean in pairs of
 * characters, Latin letters without diacritics. `keyword_text` holds that reading where it differs from the content
 * (null for text of ASCII only). PostgreSQL's `search_tsv` is generated from it (a generated column's expression
 * cannot be altered in PostgreSQL 15: dropped with its index and added again, which rewrites the table once);
 * SQLite's FTS5 gets the memories that read otherwise again (it folded diacritics itself already).
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema.alterTable('memories').addColumn('keyword_text', 'text').execute();
  // Only text with a character beyond ASCII can read otherwise: more bytes than characters, which both engines
  // tell without JavaScript (a pattern over every character cost SQLite 8 s at a million memories, this 0.5 s).
  for (let after = -1; ; ) {
    const { rows } = await sql<{ seq: number | string; content: string; source_scope: string | null }>`
      SELECT seq, content, source_scope FROM memories
      WHERE seq > ${after} AND octet_length(content) <> length(content) ORDER BY seq LIMIT ${PAGE}`.execute(db);
    if (rows.length === 0) break;
    after = Number(rows.at(-1)!.seq);
    const read = rows.flatMap((row) => {
      const text = keywordTextIfOther(row.content);
      return text === null ? [] : [{ seq: Number(row.seq), text, fact: row.source_scope === 'fact' }];
    });
    if (read.length === 0) continue;
    const values = sql.join(read.map((r) => sql`(${r.seq}, ${r.text})`));
    await sql`WITH v (seq, text) AS (VALUES ${values})
      UPDATE memories SET keyword_text = v.text FROM v WHERE memories.seq = CAST(v.seq AS BIGINT)`.execute(db);
    // Facts are not in SQLite's keyword index (migration 0011).
    const indexed = read.filter((r) => !r.fact);
    if (dialect === 'sqlite' && indexed.length > 0) {
      await sql`DELETE FROM memory_fts WHERE rowid IN (${sql.join(indexed.map((r) => r.seq))})`.execute(db);
      await sql`INSERT INTO memory_fts (rowid, content) VALUES ${sql.join(indexed.map((r) => sql`(${r.seq}, ${r.text})`))}`.execute(
        db,
      );
    }
  }
  if (dialect !== 'postgres') return;
  await sql`ALTER TABLE memories DROP COLUMN search_tsv`.execute(db);
  await sql`ALTER TABLE memories ADD COLUMN search_tsv tsvector
    GENERATED ALWAYS AS (to_tsvector('english', coalesce(keyword_text, content))) STORED`.execute(db);
  // As migration 0021 left it: entries straight into the index, no pending list.
  await sql`CREATE INDEX memories_search_tsv ON memories USING gin (search_tsv) WITH (fastupdate = off)`.execute(db);
}
