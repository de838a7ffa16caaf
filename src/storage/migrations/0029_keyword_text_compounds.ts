import type { Kysely } from 'kysely';
import type { SqlDialect } from './column-types.js';
import { readKeywordTextAgain } from './keyword-reading.js';

/**
 * Words joined by hyphens ("follow-up", "e-mail") are read in their parts and then, after the text, as one word
 * (text/keyword-text.ts): "followup" and "email" found nothing where a memory wrote the hyphen, nor the other way
 * round. The memories that read otherwise get their `keyword_text` again.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await readKeywordTextAgain(db, dialect, 'hyphen');
}

/** It rewrites the keyword text and the keyword index only. */
export const leavesVectors = true;
