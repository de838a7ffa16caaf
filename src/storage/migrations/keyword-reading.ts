import { sql, type Kysely, type RawBuilder } from 'kysely';
import { keywordTextIfOther } from '../../text/keyword-text.js';
import type { SqlDialect } from './column-types.js';

/** Rows read and rewritten at a time. */
const PAGE = 500;

/**
 * Which memories a change of text/keyword-text.ts can read otherwise, told by the database without JavaScript (a
 * pattern over every character in JavaScript cost SQLite 8 s at a million memories, a byte count 0.5 s):
 * - `beyond ASCII`: text with a character beyond ASCII (more bytes than characters);
 * - `code`: that, or text with a dot, slash, at sign, colon or tilde right before a character other than a space (a
 *   file name, a path, an address, a version), a sign before a digit (a date, a ticket), a lower-case letter before
 *   a capital, or two capitals before two lower-case letters (camel case); an ASCII pattern, so text beyond ASCII is
 *   read whatever it holds. At a million memories of the scale corpus SQLite counted the pattern's rows (none) in
 *   3.1 s;
 * - `hyphen`: text with a hyphen between two characters that are letters or beyond ASCII (a compound: "follow-up",
 *   "Zoë-Élise"); not every text beyond ASCII, whose reading no earlier change left to this one (the first start of
 *   the kept million after 0025 took 28.7 s, 12 s of them reading its text beyond ASCII again).
 */
export type ReadAgain = 'beyond ASCII' | 'code' | 'hyphen';

function candidates(which: ReadAgain, dialect: SqlDialect): RawBuilder<unknown> {
  const beyondAscii = sql`octet_length(content) <> length(content)`;
  if (which === 'beyond ASCII') return beyondAscii;
  if (which === 'hyphen')
    // Neither a space, an ASCII punctuation mark nor a digit on either side (SQLite's GLOB classes and PostgreSQL's
    // character classes under any LC_CTYPE read characters beyond ASCII as such).
    return dialect === 'sqlite'
      ? sql`content GLOB ${'*[^ -@[-`{-~]-[^ -@[-`{-~]*'}`
      : sql`content ~ '[^[:space:][:punct:][:digit:]]-[^[:space:][:punct:][:digit:]]'`;
  const code =
    dialect === 'sqlite'
      ? sql`(content GLOB '*[./@:~][^ ]*' OR content GLOB '*[-+][0-9]*' OR content GLOB '*[a-z][A-Z]*'
          OR content GLOB '*[A-Z][A-Z][a-z][a-z]*')`
      : sql`content ~ '[./@:~][^ ]|[-+][0-9]|[a-z][A-Z]|[A-Z][A-Z][a-z][a-z]'`;
  return sql`(${beyondAscii} OR ${code})`;
}

/**
 * Sets `keyword_text` of every memory `which` names whose reading by text/keyword-text.ts differs from what the
 * column holds, and gives SQLite's FTS5 those memories again (PostgreSQL's `search_tsv` is generated from the
 * column). Migrations that change how the index reads text run it once the column exists.
 */
export async function readKeywordTextAgain(db: Kysely<any>, dialect: SqlDialect, which: ReadAgain): Promise<void> {
  const reads = candidates(which, dialect);
  for (let after = -1; ; ) {
    const { rows } = await sql<{
      seq: number | string;
      content: string;
      keyword_text: string | null;
      source_scope: string | null;
    }>`
      SELECT seq, content, keyword_text, source_scope FROM memories
      WHERE seq > ${after} AND ${reads} ORDER BY seq LIMIT ${PAGE}`.execute(db);
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
