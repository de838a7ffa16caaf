import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { StorageConfig } from '../config.js';
import { MIGRATION_NAMES } from './migrations/index.js';

/** Kysely's bookkeeping table (migrations/index.ts runs the Migrator with its defaults). */
const MIGRATION_TABLE = 'kysely_migration';

/** What a database holds, read without changing it: no migration, no lock (a server may be running on it). */
export interface StorageInspection {
  engine: 'sqlite' | 'postgres';
  /** The database file, or the Postgres URL without its password. */
  location: string;
  /** SQLite's library version, or the Postgres server's. */
  version: string;
  /** False: no memd schema there yet (no SQLite file, or an empty database): the first start creates it. */
  hasSchema: boolean;
  /** Schema versions of this build the database has not run yet (the next start runs them). */
  pending: string[];
  /** Schema versions the database has run that this build does not know: a newer memd wrote it. */
  unknown: string[];
  /** The database's own records (`meta`: the embedder of its vectors, …); empty before the first start. */
  meta: Record<string, string>;
  /** Postgres only: pgvector as installed in the database, and the version the server could install; null: absent. */
  pgvector?: { installed: string | null; available: string | null };
  /** Postgres only: the server settings docs/deploy.md recommends, and how much memd's tables hold. */
  server?: PostgresServerState;
}

/** What `memd doctor` compares with docs/deploy.md's server settings. */
export interface PostgresServerState {
  /** `shared_buffers`, in bytes. */
  sharedBuffersBytes: number;
  /** `shared_preload_libraries`, one name each. */
  preloadedLibraries: string[];
  /** `huge_pages`: on, off or try. */
  hugePages: string;
  /** The memories and their vectors with every index of theirs, in bytes (0 before the first start). */
  dataBytes: number;
}

interface MetaRow {
  key: string;
  value: string;
}

const recordsOf = (rows: readonly MetaRow[]): Record<string, string> =>
  Object.fromEntries(rows.map((row) => [row.key, row.value]));

function compare(applied: readonly string[]): Pick<StorageInspection, 'pending' | 'unknown'> {
  return {
    pending: MIGRATION_NAMES.filter((name) => !applied.includes(name)),
    unknown: applied.filter((name) => !MIGRATION_NAMES.includes(name)),
  };
}

function inspectSqlite(path: string): StorageInspection {
  const base = { engine: 'sqlite' as const, location: path };
  if (!existsSync(path)) {
    const memory = new Database(':memory:');
    const { version } = memory.prepare('SELECT sqlite_version() AS version').get() as { version: string };
    memory.close();
    return { ...base, version, hasSchema: false, ...compare([]), meta: {} };
  }
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const hasTable = (name: string) =>
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
    const { version } = db.prepare('SELECT sqlite_version() AS version').get() as { version: string };
    const hasSchema = hasTable(MIGRATION_TABLE);
    const applied = hasSchema
      ? (db.prepare(`SELECT name FROM ${MIGRATION_TABLE}`).all() as Array<{ name: string }>).map((row) => row.name)
      : [];
    const meta = hasTable('meta') ? (db.prepare('SELECT key, value FROM meta').all() as MetaRow[]) : [];
    return { ...base, version, hasSchema, ...compare(applied), meta: recordsOf(meta) };
  } finally {
    db.close();
  }
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'MEMD_DATABASE_URL';
  }
}

async function inspectPostgres(url: string, schema: string, timeoutMs: number): Promise<StorageInspection> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  // A connection that drops after connecting must fail a query, not the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const one = async <T>(text: string, values: unknown[] = []): Promise<T | undefined> =>
      (await client.query(text, values)).rows[0] as T | undefined;
    const table = (name: string) => `${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(name)}`;
    const hasTable = async (name: string) =>
      (await one<{ found: string | null }>('SELECT to_regclass($1) AS found', [table(name)]))?.found != null;
    const version = (await one<{ server_version: string }>('SHOW server_version'))!.server_version;
    const hasSchema = await hasTable(MIGRATION_TABLE);
    const applied = hasSchema
      ? (await client.query<{ name: string }>(`SELECT name FROM ${table(MIGRATION_TABLE)}`)).rows.map((row) => row.name)
      : [];
    const meta = (await hasTable('meta'))
      ? (await client.query<MetaRow>(`SELECT key, value FROM ${table('meta')}`)).rows
      : [];
    const installed = await one<{ extversion: string }>("SELECT extversion FROM pg_extension WHERE extname = 'vector'");
    const available = await one<{ default_version: string }>(
      "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'",
    );
    const settings = (await one<{ shared_buffers: string; preload: string; huge_pages: string; data: string }>(
      `SELECT pg_size_bytes(current_setting('shared_buffers')) AS shared_buffers,
        current_setting('shared_preload_libraries') AS preload, current_setting('huge_pages') AS huge_pages,
        coalesce(pg_total_relation_size(to_regclass($1)), 0) + coalesce(pg_total_relation_size(to_regclass($2)), 0) AS data`,
      [table('memories'), table('memory_vectors')],
    ))!;
    return {
      engine: 'postgres',
      location: withoutPassword(url),
      version,
      hasSchema,
      ...compare(applied),
      meta: recordsOf(meta),
      pgvector: { installed: installed?.extversion ?? null, available: available?.default_version ?? null },
      server: {
        sharedBuffersBytes: Number(settings.shared_buffers),
        preloadedLibraries: settings.preload
          .split(',')
          .map((name) => name.trim().replace(/^"|"$/g, ''))
          .filter((name) => name !== ''),
        hugePages: settings.huge_pages,
        dataBytes: Number(settings.data),
      },
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Reads the configured database's state; throws when it cannot be reached or read. */
export function inspectStorage(config: StorageConfig, timeoutMs = 10_000): Promise<StorageInspection> {
  return config.kind === 'postgres'
    ? inspectPostgres(config.url, config.schema ?? 'public', timeoutMs)
    : Promise.resolve().then(() => inspectSqlite(config.path));
}
