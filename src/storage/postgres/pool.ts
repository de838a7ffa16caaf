import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { AppError, GaveWayError } from '../../errors.js';
import { missingReference } from '../sql/missing-reference.js';

/** What a client is told to wait before retrying while the database cannot be reached. */
const RETRY_AFTER_SECONDS = 2;
/**
 * A connection not obtained by then fails: opening one (an unreachable host would otherwise hang the request) or
 * waiting for a free one in a full pool.
 */
export const CONNECT_TIMEOUT_MS = 30_000;

/**
 * SQLSTATE classes and codes that mean the server or the connection is gone, not that the statement was wrong:
 * connection exceptions (08), the server shutting down or restarting (57P01–57P03), too many connections (53300).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[1-3]|53300)$/;
/** Socket-level failures node reports before any SQLSTATE exists. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** pg's own words for a connection that ended under a query, or a client left unusable by that. */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection ended/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_SOCKET_CODES.has(code))) return true;
  return UNAVAILABLE_MESSAGES.test(error.message);
}

const unavailable = (cause: unknown): AppError =>
  new AppError('storage_unavailable', 'the database is not available; try again shortly', {
    retryAfter: RETRY_AFTER_SECONDS,
    cause,
  });

/** deadlock_detected and serialization_failure: the server rolled this transaction back for another's sake. */
const GAVE_WAY_STATES = new Set(['40P01', '40001']);

const gaveWay = (error: unknown): GaveWayError | null =>
  GAVE_WAY_STATES.has(String((error as { code?: unknown } | null)?.code)) ? new GaveWayError(error) : null;

/**
 * Rethrows a lost database as `storage_unavailable` (503), a write naming a row deleted meanwhile as `not_found`
 * (missing-reference.ts), a transaction the server rolled back to break a deadlock as `conflict` (409: a workspace
 * deleted while a document's ingestion wrote into it met one, and either side can be chosen), anything else as it
 * came.
 */
function translate(error: unknown): never {
  throw isDatabaseUnavailable(error) ? unavailable(error) : (missingReference(error) ?? gaveWay(error) ?? error);
}

export interface PoolOptions {
  url: string;
  size: number;
  /** Runs once on each new connection before anything else is sent on it (search_path, pgvector settings). */
  prepare(client: pg.PoolClient): Promise<void>;
  types: pg.CustomTypesConfig;
}

/**
 * The connection pool Kysely queries through. A node must outlive its database: while the server is down or
 * restarting, every query fails fast as `storage_unavailable` (the API answers 503 with a JSON body), broken
 * connections leave the pool, and once the server is back new connections serve the next request, with no restart
 * of the node. A connection is prepared before it is first handed out; one that fails to prepare is dropped rather
 * than kept half set up.
 */
export function createPool(options: PoolOptions): { pool: PostgresPool; raw: pg.Pool } {
  const raw = new pg.Pool({
    connectionString: options.url,
    max: options.size,
    types: options.types,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // Idle connections stay open (pg closes them after 10 s by default): a recall sends several statements at once,
    // and one that had to open and prepare a new backend first waited for it (docs/postgres-tuning.md).
    idleTimeoutMillis: 0,
  });
  // An idle connection that drops (a restart, a network cut) emits here; the pool has already let it go.
  raw.on('error', () => undefined);
  const prepared = new WeakSet<pg.PoolClient>();
  // Kysely keys its per-connection state by the object it gets: one wrapper per connection, not per checkout.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();

  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let wrapper = wrappers.get(client);
    if (!wrapper) {
      wrapper = {
        query: ((sql: unknown, parameters?: ReadonlyArray<unknown>) =>
          typeof sql === 'string'
            ? client.query(sql, parameters as unknown[]).catch(translate)
            : client.query(sql as never)) as unknown as PostgresPoolClient['query'],
        // pg replaces `release` on every checkout: always call the current one.
        release: () => client.release(),
      };
      wrappers.set(client, wrapper);
    }
    return wrapper;
  };

  const pool: PostgresPool = {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await raw.connect();
      } catch (error) {
        // Whatever stops a connection from opening (refused, starting up, timed out), the database is unavailable.
        throw unavailable(error);
      }
      if (!prepared.has(client)) {
        // A connection that dies between the statements of a transaction emits 'error' while checked out; unheard,
        // that would end the process. The next statement on it fails instead, and the pool drops it.
        client.on('error', () => undefined);
        try {
          await options.prepare(client);
        } catch (error) {
          client.release(error instanceof Error ? error : new Error(String(error)));
          translate(error);
        }
        prepared.add(client);
      }
      return wrap(client);
    },
    end: () => raw.end(),
  };
  return { pool, raw };
}
