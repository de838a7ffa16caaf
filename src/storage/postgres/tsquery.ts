import { sql, type RawBuilder } from 'kysely';
import { keywordPhrase } from '../../text/keyword-text.js';
import type { KeywordQuery } from '../sql/search-engine.js';

/** One term or phrase as a tsquery, read as the keyword index reads text (text/keyword-text.ts). */
export const phraseQuery = (text: string): RawBuilder<unknown> =>
  sql`phraseto_tsquery('english', ${keywordPhrase(text)})`;

/**
 * A tsquery for any of `terms` and every one of `required`. phraseto_tsquery accepts any text, so no user input
 * reaches tsquery syntax; several words make a phrase.
 */
export function tsQuery(query: Pick<KeywordQuery, 'terms' | 'required'>): RawBuilder<unknown> {
  const anyOf = (terms: readonly string[]) =>
    terms.length === 1 ? phraseQuery(terms[0]!) : sql`(${sql.join(terms.map(phraseQuery), sql` || `)})`;
  const parts = query.required.map((required) =>
    typeof required === 'string' ? phraseQuery(required) : anyOf(required),
  );
  if (query.terms.length > 0) parts.push(anyOf(query.terms));
  return sql.join(parts, sql` && `);
}
