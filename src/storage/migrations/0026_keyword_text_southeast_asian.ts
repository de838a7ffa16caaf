import type { Kysely } from 'kysely';
import type { SqlDialect } from './column-types.js';
import { readKeywordTextAgain } from './keyword-reading.js';

/**
 * Thai, Lao, Khmer and Burmese are written without spaces between words, and the keyword index read a run of them as
 * one word (text/keyword-text.ts): since this migration they are read in pairs of characters, as Chinese, Japanese and
 * Korean are since 0025. The memories that read otherwise get their `keyword_text` again.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await readKeywordTextAgain(db, dialect, 'beyond ASCII');
}

/** It rewrites the keyword text and the keyword index only. */
export const leavesVectors = true;
