import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import { TableGrowth } from './table-growth.js';

/**
 * Rows a node writes before it gathers the planner's statistics the first time. Below this an exact scan of the
 * workspace is as fast as the HNSW index (and exact); above it the plan chosen without statistics grows with the
 * table: 12 ms a search at 4,000 memories against 0.6 ms through the index (BENCHMARKS.md, "planner statistics").
 */
export const FIRST_ANALYZE_AFTER_ROWS = 1_000;

/** The tables whose plans went wrong without statistics: the vector search joins both. */
const TABLES = sql`memories, memory_vectors`;

/**
 * Keeps PostgreSQL's planner statistics of the memory tables from lagging far behind their size.
 *
 * A new table has none until autovacuum first analyzes it, up to a minute (`autovacuum_naptime`) after it filled.
 * Meanwhile the planner takes `workspace_id = $1 AND status = 'active'` to match a row or two and answers a vector
 * search by reading the whole workspace and sorting it, a cost that grows with every memory written: a fresh
 * database's ingest slowed from 2.4 to 12.3 s a thousand memories, and took 2.0 s a thousand again once autovacuum
 * had analyzed the tables (BENCHMARKS.md). So a node that has written as many rows as the tables held at their last
 * analysis (at first FIRST_ANALYZE_AFTER_ROWS) analyzes them itself, in the background (TableGrowth): once each
 * time the tables double, a few times in their life; autovacuum's own analyses follow their growth as well.
 */
export class PlannerStatistics {
  // SKIP_LOCKED: another node analyzing the same tables has it in hand. A failure (a role that does not own the
  // tables gets a warning, not an error) leaves the statistics to autovacuum, as before.
  private readonly growth = new TableGrowth(FIRST_ANALYZE_AFTER_ROWS, async () => {
    await sql`ANALYZE (SKIP_LOCKED) ${TABLES}`.execute(this.db);
    return null;
  });

  constructor(private readonly db: Kysely<Database>) {}

  /** What the tables held at their last analysis (none yet: 0), read once when storage opens. */
  async start(): Promise<void> {
    const { rows } = await sql<{ tuples: number }>`
      SELECT reltuples::float8 AS tuples FROM pg_class WHERE oid = 'memory_vectors'::regclass`.execute(this.db);
    this.growth.ranAt(rows[0]?.tuples ?? 0);
  }

  /** Rows committed by this node. */
  noteRowsAdded(count: number): void {
    this.growth.noteRowsAdded(count);
  }

  /** Waits for an analysis in progress (before the pool closes). */
  async settle(): Promise<void> {
    await this.growth.settle();
  }
}
