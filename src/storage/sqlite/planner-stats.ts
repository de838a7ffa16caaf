import type Database from 'better-sqlite3';

/** Rows assumed per table when seeding: the planner only compares estimates, so the scale matters, not the value. */
const ROWS = 1_000_000;

/**
 * How many rows one value of a column typically matches. Workspaces are few and large; ids, hashes and sequence
 * numbers are (nearly) unique; every other indexed column narrows to a handful.
 */
function rowsPerValue(column: string, unique: boolean, isLast: boolean): number {
  if (unique && isLast) return 1;
  if (column === 'workspace_id') return 100_000;
  if (column === 'status') return 50_000;
  if (['id', 'seq', 'content_hash', 'key_hash', 'dedupe_key', 'created_at', 'run_at'].includes(column)) return 1;
  return 10;
}

/**
 * An empty database has no statistics, and without them SQLite answers `workspace_id = ? AND id IN (…)` by scanning
 * the workspace instead of using the unique id index. Seeding sqlite_stat1 with the shape the data will have keeps
 * plans right from the first row; `PRAGMA optimize` replaces the seeds with measured statistics as tables grow.
 */
export function seedPlannerStatistics(db: Database.Database): void {
  db.exec('ANALYZE sqlite_schema');
  // Indexes with no statistics yet: all of them in a new database, the new ones after an upgrade.
  const indexes = db
    .prepare(
      `SELECT name, tbl_name AS tbl FROM sqlite_schema WHERE type = 'index' AND tbl_name NOT LIKE 'sqlite_%' AND tbl_name NOT LIKE 'memory_fts%'
       AND name NOT IN (SELECT idx FROM sqlite_stat1 WHERE idx IS NOT NULL)`,
    )
    .all() as Array<{ name: string; tbl: string }>;
  if (indexes.length === 0) return;
  const insert = db.prepare('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const { name, tbl } of indexes) {
      const columns = db.prepare(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`).all(name) as Array<{
        name: string;
      }>;
      const unique =
        (
          db.prepare(`SELECT "unique" FROM pragma_index_list(?) WHERE name = ?`).get(tbl, name) as
            | { unique: number }
            | undefined
        )?.unique === 1;
      let narrowed = ROWS;
      const stats = columns.map((c, i) => {
        narrowed = Math.max(1, Math.min(narrowed, rowsPerValue(c.name, unique, i === columns.length - 1)));
        return narrowed;
      });
      insert.run(tbl, name, [ROWS, ...stats].join(' '));
    }
  })();
  // The planner reads sqlite_stat1 when the schema is loaded.
  db.exec('ANALYZE sqlite_schema');
}
