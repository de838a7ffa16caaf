import Database from 'better-sqlite3';

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

// Worker-thread side of SqliteReader: one connection per database file, opened on first use, statements prepared once.
const connections = new Map<string, { db: Database.Database; prepared: Map<string, Database.Statement> }>();
const STATEMENT_CACHE = 256;

function connection(path: string) {
  let entry = connections.get(path);
  if (!entry) {
    const db = new Database(path, { fileMustExist: true });
    // The main thread owns every write; this connection only ever reads (WAL: it never blocks the writer).
    db.pragma('query_only = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma('cache_size = -16384');
    entry = { db, prepared: new Map() };
    connections.set(path, entry);
  }
  return entry;
}

// Structured cloning turns a Buffer into a plain Uint8Array; the driver binds BLOBs from Buffers.
const bindable = (value: unknown): unknown => (value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value);

export default function read({ path, statements }: ReadTask): unknown[][] {
  const { db, prepared } = connection(path);
  return statements.map(({ sql, parameters }) => {
    let statement = prepared.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (prepared.size >= STATEMENT_CACHE) prepared.delete(prepared.keys().next().value!);
      prepared.set(sql, statement);
    }
    return statement.all(...parameters.map(bindable));
  });
}

/** Closes this thread's connections (the pool is being destroyed). */
export function close(): void {
  for (const { db } of connections.values()) db.close();
  connections.clear();
}
