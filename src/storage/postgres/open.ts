import { Kysely } from 'kysely';
import pg from 'pg';
import { STORAGE, type VectorIndexKind } from '../../config/settings/storage.js';
import { AppError } from '../../errors.js';
import type { Database } from '../database.js';
import { DEFAULT_POSTGRES_SCHEMA, migrateToLatest } from '../migrations/index.js';
import { SqlStorage } from '../sql/storage.js';
import { CONNECT_TIMEOUT_MS, createPool } from './pool.js';
import { PlannerStatistics } from './planner-statistics.js';
import { SchemaPostgresDialect } from './schema-introspector.js';
import { PostgresSearchEngine } from './search-engine.js';

export interface PostgresOptions {
  url: string;
  poolSize: number;
  /**
   * `hnsw.ef_search` of every connection: recall's search beam (the near-duplicate check narrows it per search);
   * MEMD_DATABASE_EF_SEARCH's default when not given.
   */
  efSearch?: number;
  /** The dense arm's index (MEMD_DATABASE_VECTOR_INDEX's default when not given) and IVFFlat's probes. */
  vectorIndex?: VectorIndexKind;
  ivfflatProbes?: number;
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
  const efSearch = Math.trunc(options.efSearch ?? STORAGE.efSearch.read({}));
  const ivfflatProbes = Math.trunc(options.ivfflatProbes ?? STORAGE.ivfflatProbes.read({}));
  const searchPath = options.schema ? `SET search_path TO ${pg.escapeIdentifier(options.schema)}, public` : null;
  const { pool } = createPool({
    url: options.url,
    size: options.poolSize,
    types,
    async prepare(client) {
      if (searchPath) await client.query(searchPath);
      // Filtered vector queries keep scanning the HNSW graph (or IVFFlat's lists) until LIMIT rows pass the filter
      // (pgvector >= 0.8); an older pgvector refuses the settings and searches as before. Both kinds' settings are
      // set whichever index is built: the other kind's cost nothing.
      await client
        .query(
          `SET hnsw.iterative_scan = relaxed_order; SET hnsw.ef_search = ${efSearch}; ` +
            `SET ivfflat.iterative_scan = relaxed_order; SET ivfflat.probes = ${ivfflatProbes}`,
        )
        .catch(() => undefined);
    },
  });
  // Introspection (Kysely's migrator) sees only this schema: SchemaIntrospector says why.
  const db = new Kysely<Database>({
    dialect: new SchemaPostgresDialect({ pool }, options.schema ?? DEFAULT_POSTGRES_SCHEMA),
  });
  const statistics = new PlannerStatistics(db);
  try {
    await migrateExclusively(options.url, options.schema, async () => {
      await migrateToLatest(db, 'postgres', options.schema);
    });
    await statistics.start();
  } catch (error) {
    await db.destroy().catch(() => undefined);
    // At start the operator needs the driver's own words (refused, authentication failed), not the API's 503.
    const reason = error instanceof AppError && error.cause instanceof Error ? error.cause : error;
    throw new Error(
      `opening the PostgreSQL database failed: ${reason instanceof Error ? reason.message : String(reason)}`,
      { cause: error },
    );
  }
  const engine = new PostgresSearchEngine(db, {
    dimensions: options.dimensions,
    vectorIndex: options.vectorIndex ?? STORAGE.vectorIndex.read({}),
    statistics,
    poolSize: options.poolSize,
  });
  return new SqlStorage(db, engine, async () => {
    await statistics.settle();
    await engine.training?.settle();
  });
}

/**
 * Nodes that start together over one database take turns to bring its schema up to date: the first creates the
 * schema and applies what is missing, the next find nothing left to do. A session advisory lock, held on a connection
 * of its own (so that the migrations can use the pool, even a pool of one), spans both steps; Kysely's own migration
 * lock covers only the second, and two concurrent `CREATE SCHEMA IF NOT EXISTS` can still collide. One lock for the
 * whole database rather than one per schema: starts are rare and migrations short, and nodes of different schemas
 * then never interleave catalogue changes (see also migrateToLatest on naming the schema of Kysely's tables).
 */
async function migrateExclusively(
  url: string,
  schema: string | undefined,
  migrate: () => Promise<void>,
): Promise<void> {
  const lock = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  lock.on('error', () => undefined);
  await lock.connect();
  try {
    const key = 'memd migrations';
    await lock.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
    try {
      if (schema) await lock.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(schema)}`);
      await migrate();
    } finally {
      await lock.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch(() => undefined);
    }
  } finally {
    await lock.end().catch(() => undefined);
  }
}
