import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { withStatementCache } from './statement-cache.js';
import { threadConnections } from './thread-connections.js';

/** A read statement compiled on the main thread (Kysely), run here on this thread's own connection. */
export interface ReadStatement {
  sql: string;
  parameters: readonly unknown[];
}

/** Statements run one after the other in one trip to this thread; the answer has the rows of each. */
export interface ReadTask {
  path: string;
  statements: readonly ReadStatement[];
}

// Worker-thread side of SqliteReader: one connection per database file, opened on first use.
const connections = threadConnections((path) => {
  const db = withStatementCache(new Database(path, { fileMustExist: true }));
  // The main thread owns every write; this connection only ever reads (WAL: it never blocks the writer).
  db.pragma('query_only = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -16384');
  // Keyword hits come with their vectors' similarity to the query (vec_distance_cosine).
  sqliteVec.load(db);
  return db;
});

export default function read({ path, statements }: ReadTask): unknown[][] {
  const db = connections.connection(path);
  return statements.map(({ sql, parameters }) => db.prepare(sql).all(...parameters));
}

/** Closes this thread's connections (the pool is being destroyed). */
export function close(): void {
  connections.closeAll();
}
