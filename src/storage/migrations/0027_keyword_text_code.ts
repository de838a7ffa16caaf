import type { Kysely } from 'kysely';
import type { SqlDialect } from './column-types.js';
import { readKeywordTextAgain } from './keyword-reading.js';

/**
 * Words joined by a dot, slash, at sign or colon ("userService.ts", "ana@example.com") are read apart, and words in
 * camel case ("getUserById") whole and in their parts (text/keyword-text.ts): PostgreSQL's parser read the first as one
 * word each, and neither engine split the second. The memories that read otherwise get their `keyword_text` again.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await readKeywordTextAgain(db, dialect, 'code');
}

/** It rewrites the keyword text and the keyword index only. */
export const leavesVectors = true;
