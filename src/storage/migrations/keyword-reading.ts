import { sql, type Kysely } from 'kysely';
import { keywordTextIfOther } from '../../text/keyword-text.js';
import type { SqlDialect } from './column-types.js';

/** Rows read and rewritten at a time. */
const PAGE = 500;

/**
 * Sets `keyword_text` of every memory whose reading by text/keyword-text.ts differs from what the column holds, and
 * gives SQLite's FTS5 those memories again (PostgreSQL's `search_tsv` is generated from the column). Migrations that
 * change how the index reads text run it once the column exists.
 */
export async function readKeywordTextAgain(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  // Only text with a character beyond ASCII can read otherwise: more bytes than characters, which both engines
  // tell without JavaScript (a pattern over every character cost SQLite 8 s at a million memories, this 0.5 s).
  for (let after = -1; ; ) {
    const { rows } = await sql<{
      seq: number | string;
      content: string;
      keyword_text: string | null;
      source_scope: string | null;
    }>`
      SELECT seq, content, keyword_text, source_scope FROM memories
      WHERE seq > ${after} AND octet_length(content) <> length(content) ORDER BY seq LIMIT ${PAGE}`.execute(db);
    if (rows.length === 0) break;
    after = Number(rows.at(-1)!.seq);
    const read = rows.flatMap((row) => {
      const text = keywordTextIfOther(row.content);
      return text === row.keyword_text
        ? []
        : [{ seq: Number(row.seq), text, indexed: text ?? row.content, fact: row.source_scope === 'fact' }];
    });
    if (read.length === 0) continue;
    const values = sql.join(read.map((r) => sql`(${r.seq}, ${r.text})`));
    await sql`WITH v (seq, text) AS (VALUES ${values})
      UPDATE memories SET keyword_text = v.text FROM v WHERE memories.seq = CAST(v.seq AS BIGINT)`.execute(db);
    // Facts are not in SQLite's keyword index (migration 0011).
    const indexed = read.filter((r) => !r.fact);
    if (dialect === 'sqlite' && indexed.length > 0) {
      await sql`DELETE FROM memory_fts WHERE rowid IN (${sql.join(indexed.map((r) => r.seq))})`.execute(db);
      await sql`INSERT INTO memory_fts (rowid, content) VALUES ${sql.join(indexed.map((r) => sql`(${r.seq}, ${r.indexed})`))}`.execute(
        db,
      );
    }
  }
}
