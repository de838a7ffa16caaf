import type { Kysely } from 'kysely';
import type { SqlDialect } from './column-types.js';
import { readKeywordTextAgain } from './keyword-reading.js';

/**
 * Words joined by a dot, slash, at sign or colon ("userService.ts", "ana@example.com"), a path's opening slash and a
 * sign before a digit ("2024-03-15") are read apart, and words in camel case ("getUserById") whole and in their parts
 * (text/keyword-text.ts): PostgreSQL's parser read the first as one word each (the last as negative numbers), and
 * neither engine split the camel case. The memories that read otherwise get their `keyword_text` again.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await readKeywordTextAgain(db, dialect, 'code');
}

/** It rewrites the keyword text and the keyword index only. */
export const leavesVectors = true;
