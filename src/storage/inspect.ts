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
    return {
      engine: 'postgres',
      location: withoutPassword(url),
      version,
      hasSchema,
      ...compare(applied),
      meta: recordsOf(meta),
      pgvector: { installed: installed?.extversion ?? null, available: available?.default_version ?? null },
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
