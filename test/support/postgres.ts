import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { sql, type Kysely } from 'kysely';

export interface PostgresServer {
  url: string;
  /**
   * Connections a pool may open: one. PGlite has a single backend, and pglite-socket interleaves the extended-protocol
   * messages of concurrent connections outside transactions (electric-sql/pglite#1046): one client's Bind can hit
   * another's Parse, failing or, worse, returning the other query's rows.
   */
  maxConnections: number;
  stop(): Promise<void>;
}

/** A real Postgres engine with pgvector, over the wire protocol, started in-process for the test file. */
export async function startPglite(): Promise<PostgresServer> {
  const db = await PGlite.create({ extensions: { vector } });
  // Headroom over the pool size: a closing socket still counts against the limit for a moment.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 8 });
  await server.start();
  const { port } = (server as unknown as { server: { address(): { port: number } } }).server.address();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    maxConnections: 1,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

/** A fresh schema name, so tests sharing one server never see each other's tables. */
export const freshSchema = (): string => `t_${randomBytes(6).toString('hex')}`;

/**
 * How many scans `index` (of the connection's schema) has served, as pg_stat_user_indexes counts them. The backend's
 * pending statistics are flushed first, so scans the same connection just ran are counted: use a pool of one.
 */
export async function indexScanCount(db: Kysely<any>, index: string): Promise<number> {
  await sql`SELECT pg_stat_force_next_flush()`.execute(db);
  const { rows } = await sql<{ scans: string }>`SELECT idx_scan AS scans FROM pg_stat_user_indexes
    WHERE indexrelname = ${index} AND schemaname = current_schema()`.execute(db);
  return Number(rows[0]?.scans ?? 0);
}
