import { CompiledQuery, Kysely, PostgresDialect, type DatabaseConnection } from 'kysely';
import pg from 'pg';
import type { Database } from '../database.js';
import { migrateToLatest } from '../migrations/index.js';
import { SqlStorage } from '../sql/storage.js';
import { PostgresSearchEngine } from './search-engine.js';

export interface PostgresOptions {
  url: string;
  poolSize: number;
  dimensions: number;
  /** Tables live in this schema (created if absent); lets several memd databases share one server. */
  schema?: string | undefined;
}

const INT8_OID = 20;
const JSON_OIDS = new Set([114, 3802]);

/**
 * Counts and identity columns are int8; every value we keep there fits a JS number. JSON stays text, as SQLite
 * returns it: a jsonb string scalar parsed by the driver could not be told apart from JSON text.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8_OID) return (value: string) => Number(value);
    if (JSON_OIDS.has(oid)) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

export async function openPostgresStorage(options: PostgresOptions): Promise<SqlStorage> {
  const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize, types });
  const searchPath = options.schema ? `SET search_path TO ${pg.escapeIdentifier(options.schema)}, public` : null;
  // Every new connection is set up before Kysely sends anything on it (awaited: pg no longer queues behind it).
  const onCreateConnection = async (connection: DatabaseConnection): Promise<void> => {
    if (searchPath) await connection.executeQuery(CompiledQuery.raw(searchPath));
    // Filtered vector queries keep scanning the HNSW graph until LIMIT rows pass the filter (pgvector >= 0.8);
    // an older pgvector refuses the setting and searches as before.
    await connection.executeQuery(CompiledQuery.raw('SET hnsw.iterative_scan = relaxed_order; SET hnsw.ef_search = 100')).catch(() => undefined);
  };
  if (options.schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(options.schema)}`);
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool, onCreateConnection }) });
  await migrateToLatest(db, 'postgres', options.schema);
  return new SqlStorage(db, new PostgresSearchEngine(options.dimensions), async () => {});
}
