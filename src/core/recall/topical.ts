import type { ProcessedQuery } from './query.js';

/**
 * What a query asks about the entities it names: the query with their names taken out ("When did Anouk Holm try out
 * a pendant?" → "When did try out a pendant?"). Null when it names none, or nothing but them.
 *
 * Where one name is in a hundred memories (each person of issue 24's corpus at a million memories, the speakers of a
 * conversation), the name gives every one of them the same keyword evidence, and it also dominates their vectors:
 * the nearest memories to the whole question were the person's shortest ones ("Anouk Holm likes chess and
 * knitting"), whatever the question asked. Compared with the query's vector without the name, those memories differ
 * by what they say about the person, which is what the question asks (src/core/recall/README.md, "Many memories
 * naming the same person").
 */
export function topicalText(query: Pick<ProcessedQuery, 'text' | 'entities'>): string | null {
  if (query.entities.length === 0) return null;
  // Longest first: "Anouk Holm" goes whole before a shorter entity inside it could split it.
  const names = [...query.entities].sort((a, b) => b.length - a.length);
  let rest = query.text;
  for (const name of names) rest = rest.split(name).join(' ');
  // A possessive left behind by a name ("Anouk Holm's bicycle") belongs to it, and so do a quoted name's quotes.
  rest = rest
    .replace(/(^|\s)['’]s\b/gu, ' ')
    .replace(/(["“])\s*["”]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  return /[\p{L}\p{N}]/u.test(rest) && rest !== query.text ? rest : null;
}
