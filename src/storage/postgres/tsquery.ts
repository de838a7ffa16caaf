import { sql, type RawBuilder } from 'kysely';
import { keywordPhrase } from '../../text/keyword-text.js';
import type { KeywordQuery } from '../sql/search-engine.js';

/**
 * A tsquery for any of `terms` and every one of `required`. phraseto_tsquery accepts any text, so no user input
 * reaches tsquery syntax; several words make a phrase.
 */
export function tsQuery(query: Pick<KeywordQuery, 'terms' | 'required'>): RawBuilder<unknown> {
  const term = (text: string) => sql`phraseto_tsquery('english', ${keywordPhrase(text)})`;
  const anyOf = (terms: readonly string[]) =>
    terms.length === 1 ? term(terms[0]!) : sql`(${sql.join(terms.map(term), sql` || `)})`;
  const parts = query.required.map((required) => (typeof required === 'string' ? term(required) : anyOf(required)));
  if (query.terms.length > 0) parts.push(anyOf(query.terms));
  return sql.join(parts, sql` && `);
}
