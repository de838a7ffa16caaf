import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely } from 'kysely';
import * as sqliteVec from 'sqlite-vec';
import type { Database as Schema } from '../database.js';
import { migrateToLatest } from '../migrations/index.js';
import { SqlStorage } from '../sql/storage.js';
import type { GiveWay } from '../../tasks/foreground.js';
import { DEFAULT_MERGE_SCHEDULE, KeywordIndexMerges, mergeKeywordIndex, type MergeSchedule } from './fts-merge.js';
import { ImmediateSqliteDialect } from './immediate-dialect.js';
import { claimDatabase, type OwnerLock } from './owner-lock.js';
import { SqliteReader } from './reader.js';
import { SqliteSearchEngine } from './search-engine.js';
import { withStatementCache } from './statement-cache.js';
import { DEFAULT_VECTOR_INDEX, WorkspaceVectorIndexes, type VectorIndexOptions } from './vector-index.js';
import { seedPlannerStatistics } from './planner-stats.js';
import { WalCheckpoints } from './wal-checkpoint.js';
import { WalSync } from './wal-sync.js';

export interface SqliteOptions {
  /** A file path, or ':memory:' for tests. */
  path: string;
  dimensions: number;
  /** Workspaces with fewer vectors are searched exactly. */
  annMinSize?: number;
  vectorIndex?: Partial<Omit<VectorIndexOptions, 'dimensions'>>;
  /** How often the write-ahead log is checkpointed (WalCheckpoints); tests move it. */
  checkpointIntervalMs?: number;
  /** When the keyword index is merged (fts-merge.ts); tests move it. */
  keywordMerges?: Partial<MergeSchedule>;
  /** What each step of the keyword index merge waits for first (a server's `ForegroundActivity.giveWay`). */
  giveWay?: GiveWay;
}

export async function openSqliteStorage(options: SqliteOptions): Promise<SqlStorage> {
  if (options.path === ':memory:') return openDatabase(options, null);
  mkdirSync(dirname(options.path), { recursive: true });
  const owner = claimDatabase(options.path);
  try {
    return await openDatabase(options, owner);
  } catch (error) {
    owner.release();
    throw error;
  }
}

/** The meta key of the seal of the HNSW snapshot saved at the last clean close (vector-snapshot.ts). */
const SEAL = 'vector_snapshot_seal';

/**
 * The seal the database holds, taken out of it: a snapshot is sealed for one opening only. Read on the raw
 * connection before migrations run, when `meta` may not exist yet (a new file); written back at close through
 * `storage.meta`.
 */
function takeSnapshotSeal(database: Database.Database): string | null {
  const hasMeta = database.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).get();
  if (!hasMeta) return null;
  const row = database.prepare(`SELECT value FROM meta WHERE key = ?`).get(SEAL) as { value: string } | undefined;
  if (row) database.prepare(`DELETE FROM meta WHERE key = ?`).run(SEAL);
  return row?.value ?? null;
}

/** Opens the database this process owns (`owner`: see claimDatabase; null for an in-memory one). */
async function openDatabase(options: SqliteOptions, owner: OwnerLock | null): Promise<SqlStorage> {
  const database = new Database(options.path);
  // WAL: readers never block the writer. synchronous=NORMAL: a commit survives a process crash; WalSync makes
  // acknowledged writes survive power loss too, with one fsync off the event loop per group of writes.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  // Checkpoints run on a thread of their own (WalCheckpoints), not inside this connection's commits; the log is cut
  // back to 64 MiB when it starts again, however far a burst of writes took it.
  database.pragma('wal_autocheckpoint = 0');
  database.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('temp_store = MEMORY');
  database.pragma('cache_size = -65536');
  sqliteVec.load(database);

  const db = new Kysely<Schema>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(database) }) });
  // Taken before anything writes, migrations included: a later crash leaves no seal, so the next start checks.
  const sealed = takeSnapshotSeal(database);
  const migrated = await migrateToLatest(db, 'sqlite');
  seedPlannerStatistics(database);
  const vectors = new WorkspaceVectorIndexes({
    ...DEFAULT_VECTOR_INDEX,
    ...options.vectorIndex,
    dimensions: options.dimensions,
  });
  // A second connection needs a file: an in-memory database exists for its own connection only.
  const reader = options.path === ':memory:' ? null : new SqliteReader(options.path);
  // The HNSW graphs are saved beside the database file at close and loaded at start (vector-snapshot.ts).
  const snapshotDir = options.path === ':memory:' ? null : `${options.path}.hnsw`;
  // The keyword index is merged now, when writes pause and every ten minutes (fts-merge.ts).
  const merges = new KeywordIndexMerges((interrupted) => mergeKeywordIndex(db, interrupted, options.giveWay), {
    ...DEFAULT_MERGE_SCHEDULE,
    ...options.keywordMerges,
  });
  const engine = new SqliteSearchEngine(
    vectors,
    options.annMinSize ?? 0,
    reader,
    snapshotDir,
    migrated.leftVectors ? sealed : null,
    (count) => merges.changed(count),
  );
  const wal = new WalSync(options.path === ':memory:' ? null : `${options.path}-wal`);
  const checkpoints =
    options.path === ':memory:' ? null : new WalCheckpoints(options.path, options.checkpointIntervalMs);
  checkpoints?.start();
  const optimize = setInterval(() => database.pragma('optimize'), 60 * 60_000);
  optimize.unref();
  const close = async () => {
    clearInterval(optimize);
    await merges.close();
    // Measured statistics for the next start (cheap: only tables that changed enough are analysed).
    database.pragma('optimize');
    // engine.close saved the snapshot: the database names it as what it holds, until it is next opened.
    if (engine.savedSeal) await storage.meta.set(SEAL, engine.savedSeal);
    await reader?.close();
    await checkpoints?.close();
    await wal.close();
    // The HNSW snapshot is saved (engine.close ran before this): the next owner may start.
    owner?.release();
  };
  const storage = new SqlStorage(db, engine, close, () => wal.sync());
  return storage;
}
