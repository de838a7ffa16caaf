import type { Kysely } from 'kysely';
import type { SqlDialect } from './column-types.js';
import { readKeywordTextAgain } from './keyword-reading.js';

/**
 * Punctuation, symbols and spaces beyond ASCII are read as spaces, and apostrophes beyond ASCII as ASCII's
 * (text/keyword-text.ts): PostgreSQL's parser read "everywhere—even", “quoted” and "Maya’s" as one word each where
 * the database's LC_CTYPE is C. The memories that read otherwise get their `keyword_text` again.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await readKeywordTextAgain(db, dialect, 'beyond ASCII');
}

/** It rewrites the keyword text and the keyword index only. */
export const leavesVectors = true;
