import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';

/** Pages of index one merge step writes: about 10 ms of work at 100k memories, so requests interleave. */
const PAGES_PER_STEP = 200;
/** A bound on one run, whatever the index: a run that stops here continues at the next. */
const MAX_STEPS = 500;

const segments = async (db: Kysely<Database>): Promise<number> =>
  Number((await sql<{ n: number }>`SELECT count(DISTINCT segid) AS n FROM memory_fts_idx`.execute(db)).rows[0]?.n ?? 0);

/**
 * Merges the keyword index into one segment, in small steps. FTS5 adds a segment per write and merges them only
 * in groups, so an index built by many small writes holds dozens (25 at 164k memories): each term of a search is
 * then looked up in every one. Merged, the same searches took 18 % less time (bench database, BENCHMARKS.md). Resolves with the
 * segments left.
 */
export async function mergeKeywordIndex(db: Kysely<Database>): Promise<number> {
  let left = await segments(db);
  if (left <= 1) return left;
  // A negative budget starts an incremental 'optimize' (every segment into one); positive ones continue it.
  await sql`INSERT INTO memory_fts(memory_fts, rank) VALUES ('merge', ${-PAGES_PER_STEP})`.execute(db);
  for (let step = 0; step < MAX_STEPS; step++) {
    left = await segments(db);
    if (left <= 1) break;
    await yieldToEventLoop();
    await sql`INSERT INTO memory_fts(memory_fts, rank) VALUES ('merge', ${PAGES_PER_STEP})`.execute(db);
  }
  return segments(db);
}
