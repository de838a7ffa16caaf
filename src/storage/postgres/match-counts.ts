import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import { FACT_SCOPE, type KeywordTerm } from '../types.js';
import { tsQuery } from './tsquery.js';

/**
 * Counts that share terms are counted in one pass over the memories holding those terms from this many on: recall
 * checks a later sense's words each beside every other word of the query (core/recall/unmatched.ts `fitting`, up to
 * 48 counts at once), and each count on its own read the shared words' index entries again.
 */
const SHARED_PASS_FROM = 4;

/**
 * The most memories a shared pass reads. Past it each count is counted on its own: 48 counts over the 2,990
 * memories holding "office" at 100,000 took 12-17 ms in one pass against 10-13 on their own, and 1.8-2.4 ms
 * against 10-55 over the 145 holding "yellow" and "office" (BENCHMARKS.md, "counts that share terms in one pass").
 */
const SHARED_PASS_ROWS = 1_000;

/**
 * For each list of terms, the workspace's active original memories matching every one, counted up to `cap + 1`
 * (SearchEngine.keywordMatchCounts). Several counts go in one statement: one round trip, where a recall's four to
 * eight counts had been as many.
 */
export async function countKeywordMatches(
  db: Kysely<Database>,
  workspaceId: string,
  queries: ReadonlyArray<readonly KeywordTerm[]>,
  cap: number,
): Promise<number[]> {
  if (queries.length === 0) return [];
  const shared = sharedTerms(queries);
  if (queries.length >= SHARED_PASS_FROM && shared.length > 0) {
    const counted = await countAmongShared(db, workspaceId, queries, shared);
    if (counted) return counted.map((n) => Math.min(n, cap + 1));
  }
  return countEach(db, workspaceId, queries, cap);
}

/** The terms every one of `queries` asks for (a term with alternatives: the same alternatives in the same order). */
function sharedTerms(queries: ReadonlyArray<readonly KeywordTerm[]>): KeywordTerm[] {
  const key = (term: KeywordTerm) => JSON.stringify(term);
  const [first, ...rest] = queries;
  const inEvery = rest.map((terms) => new Set(terms.map(key)));
  return first!.filter((term) => inEvery.every((keys) => keys.has(key(term))));
}

/** Each query's memories as one statement counts them: a subquery each, stopping at `cap + 1`. */
async function countEach(
  db: Kysely<Database>,
  workspaceId: string,
  queries: ReadonlyArray<readonly KeywordTerm[]>,
  cap: number,
): Promise<number[]> {
  const counts = queries.map(
    (terms, i) => sql`(SELECT count(*) FROM (
      SELECT 1 FROM memories WHERE workspace_id = ${workspaceId} AND status = 'active' AND source_scope IS DISTINCT FROM ${FACT_SCOPE} AND search_tsv @@ (${tsQuery({ terms: [], required: terms })})
      LIMIT ${cap + 1}) AS matches) AS ${sql.id(`n${i}`)}`,
  );
  const { rows } = await sql<Record<string, number>>`SELECT ${sql.join(counts)}`.execute(db);
  return queries.map((_, i) => Number(rows[0]?.[`n${i}`] ?? 0));
}

/**
 * Every query counted among the memories holding the `shared` terms, read once (at most SHARED_PASS_ROWS of them);
 * null where there are more, or where the shared terms are all stop words to the text search (an empty tsquery,
 * which `&&` leaves out of each query's own but which matches no memory alone).
 */
async function countAmongShared(
  db: Kysely<Database>,
  workspaceId: string,
  queries: ReadonlyArray<readonly KeywordTerm[]>,
  shared: readonly KeywordTerm[],
): Promise<number[] | null> {
  const held = tsQuery({ terms: [], required: shared });
  const counts = queries.map(
    (terms, i) =>
      sql`count(*) FILTER (WHERE search_tsv @@ (${tsQuery({ terms: [], required: terms })})) AS ${sql.id(`n${i}`)}`,
  );
  const { rows } = await sql<
    Record<string, number>
  >`SELECT numnode(${held}) AS shared_nodes, count(*) AS held, ${sql.join(counts)}
    FROM (SELECT search_tsv FROM memories WHERE workspace_id = ${workspaceId} AND status = 'active' AND source_scope IS DISTINCT FROM ${FACT_SCOPE} AND search_tsv @@ (${held})
      LIMIT ${SHARED_PASS_ROWS + 1}) AS holding`.execute(db);
  const row = rows[0];
  if (!row || Number(row.shared_nodes) === 0 || Number(row.held) > SHARED_PASS_ROWS) return null;
  return queries.map((_, i) => Number(row[`n${i}`] ?? 0));
}
