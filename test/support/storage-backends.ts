import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openPostgresStorage } from '../../src/storage/postgres/open.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import { openSqliteStorage } from '../../src/storage/sqlite/open.js';
import { freshSchema, startPglite, type PostgresServer } from './postgres.js';
import { testDatabaseUrl } from './test-database.js';

export interface StorageBackend {
  name: string;
  /** Opens an empty database; `annMinSize` forces SQLite onto its HNSW (0) or its exact scan (Infinity). */
  open(dimensions: number, options?: { annMinSize?: number }): Promise<SqlStorage>;
  teardown(): Promise<void>;
}

/** A database file per open, as the service runs (its keyword searches go through the reader thread). */
function sqliteBackend(): StorageBackend {
  let dir: string | undefined;
  let opened = 0;
  return {
    name: 'sqlite',
    open: (dimensions, options) => {
      dir ??= mkdtempSync(join(tmpdir(), 'memd-conformance-'));
      return openSqliteStorage({
        path: join(dir, `${opened++}.sqlite`),
        dimensions,
        annMinSize: options?.annMinSize ?? 0,
      });
    },
    teardown: async () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Server = Pick<PostgresServer, 'url' | 'maxConnections'> & Partial<Pick<PostgresServer, 'stop'>>;

/**
 * One schema per backend and vector size for the whole test file, emptied at each open: bringing a new schema up to
 * date ran every migration again (0.35 s on a quiet machine, 1.6 s a test in CI, where the `postgres` backend of the
 * storage conformance file took 56 of its 99 s). A file's tests run one after the other and close their storage
 * before the next opens, so emptying the tables at an open is the fresh database the test asks for.
 */
function postgresBackend(name: string, server: () => Promise<Server>): StorageBackend {
  let started: Server | undefined;
  const schemas = new Map<number, string>();
  return {
    name,
    async open(dimensions) {
      started ??= await server();
      const reused = schemas.get(dimensions);
      const schema = reused ?? freshSchema();
      schemas.set(dimensions, schema);
      const storage = await openPostgresStorage({
        url: started.url,
        poolSize: started.maxConnections,
        dimensions,
        schema,
      });
      if (reused) await emptyTables(storage, schema);
      return storage;
    },
    async teardown() {
      await started?.stop?.();
    },
  };
}

/** Every table of the schema but the migrations' own bookkeeping, identities restarted. */
async function emptyTables(storage: SqlStorage, schema: string): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    SELECT tablename AS name FROM pg_tables WHERE schemaname = ${schema} AND tablename NOT LIKE 'kysely_migration%'
  `.execute(storage.sqlContext.db);
  const tables = rows.map((row) => sql.id(schema, row.name));
  await sql`TRUNCATE ${sql.join(tables)} RESTART IDENTITY CASCADE`.execute(storage.sqlContext.db);
}

/**
 * Every engine the conformance suite must pass on: SQLite, and the real PostgreSQL server of the test run (started
 * by the global setup, or MEMD_TEST_DATABASE_URL). `pglite` adds PGlite, the newest Postgres major (18, with its own
 * pgvector build) embedded in this process, where the server is the oldest supported (15): the SQL must run on both.
 */
export function storageBackends(options: { pglite?: boolean } = {}): StorageBackend[] {
  const backends = [
    sqliteBackend(),
    postgresBackend('postgres', async () => ({ url: testDatabaseUrl(), maxConnections: 4 })),
  ];
  if (options.pglite) backends.push(postgresBackend('postgres 18 (PGlite)', startPglite));
  return backends;
}
