import type Database from 'better-sqlite3';

/** A worker thread's connections, one per database file. */
export interface ThreadConnections {
  /** The connection to `path`, opened on first use. */
  connection(path: string): Database.Database;
  /** Closes them all (the pool that owns the thread is being destroyed). */
  closeAll(): void;
}

/**
 * The connections of a worker thread of ours (reader-worker.ts, checkpoint-worker.ts): each thread keeps one per
 * database file for its life, opened by `open` when first asked for, and closed together at the pool's close.
 */
export function threadConnections(open: (path: string) => Database.Database): ThreadConnections {
  const connections = new Map<string, Database.Database>();
  return {
    connection(path) {
      let db = connections.get(path);
      if (!db) {
        db = open(path);
        connections.set(path, db);
      }
      return db;
    },
    closeAll() {
      for (const db of connections.values()) db.close();
      connections.clear();
    },
  };
}
