import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStorage } from '../../src/storage/postgres/open.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import { openSqliteStorage } from '../../src/storage/sqlite/open.js';
import { freshSchema, startPglite, type PostgresServer } from './postgres.js';

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
      return openSqliteStorage({ path: join(dir, `${opened++}.sqlite`), dimensions, annMinSize: options?.annMinSize ?? 0 });
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
      return openPostgresStorage({ url: started.url, poolSize: started.maxConnections, dimensions, schema: freshSchema() });
    },
    async teardown() {
      await started?.stop?.();
    },
  };
}

/** Every engine the conformance suite must pass on: SQLite, PGlite, and an external Postgres when given. */
export function storageBackends(): StorageBackend[] {
  const backends = [sqliteBackend(), postgresBackend('postgres (PGlite)', startPglite)];
  const external = process.env.MEMD_TEST_DATABASE_URL;
  if (external) backends.push(postgresBackend('postgres (MEMD_TEST_DATABASE_URL)', async () => ({ url: external, maxConnections: 4 })));
  return backends;
}
