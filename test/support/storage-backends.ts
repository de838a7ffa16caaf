import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

function postgresBackend(name: string, server: () => Promise<Server>): StorageBackend {
  let started: Server | undefined;
  return {
    name,
    async open(dimensions) {
      started ??= await server();
      return openPostgresStorage({
        url: started.url,
        poolSize: started.maxConnections,
        dimensions,
        schema: freshSchema(),
      });
    },
    async teardown() {
      await started?.stop?.();
    },
  };
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
