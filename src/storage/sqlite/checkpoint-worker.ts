import Database from 'better-sqlite3';
import { threadConnections } from './thread-connections.js';

/** What a checkpoint found in the log and copied into the database file (SQLite's own counts, in frames). */
export interface CheckpointResult {
  /** Frames in the write-ahead log. */
  log: number;
  /** Frames of it now in the database file. */
  checkpointed: number;
  /** Whether it ended with the log emptied for the writer to start again (a RESTART checkpoint that completed). */
  restarted: boolean;
}

/**
 * A log this long (16 MiB of 4 KiB pages) is emptied, not only copied: under writes that never stop, a passive
 * checkpoint never finds the whole log copied before the next commit, and the writer starts the log again only then.
 */
export const RESTART_FRAMES = 4_096;
/** Passive checkpoints repeat while they leave more than this behind, so that what a RESTART copies is small. */
const SMALL_REMAINDER = 256;
/** How long a RESTART waits for the writer's transaction and for readers before it gives up until the next turn. */
const RESTART_WAIT_MS = 50;

// Worker-thread side of WalCheckpoints: one connection per database file, opened on first use.
const connections = threadConnections((path) => {
  const db = new Database(path, { fileMustExist: true });
  // It writes no rows: a checkpoint copies committed pages from the log into the file, which query_only allows.
  db.pragma('query_only = ON');
  db.pragma(`busy_timeout = ${RESTART_WAIT_MS}`);
  return db;
});

const run = (db: Database.Database, mode: 'PASSIVE' | 'RESTART') => {
  const [row] = db.pragma(`wal_checkpoint(${mode})`) as Array<{ busy: number; log: number; checkpointed: number }>;
  return row!;
};

/**
 * Copies the log into the database file without holding up the writer or a reader: PASSIVE checkpoints copy what
 * no reader still needs and return at once where they are in the way. Once the log is RESTART_FRAMES long, a RESTART
 * checkpoint copies the little the passive ones left and empties the log: it holds new writes for that copy (and
 * waits up to RESTART_WAIT_MS for the writer's transaction and for readers, or gives up until the next turn). With
 * synchronous=NORMAL each checkpoint syncs the database file: here, not on the thread that commits.
 */
export default function checkpoint({ path }: { path: string }): CheckpointResult {
  const db = connections.connection(path);
  let row = run(db, 'PASSIVE');
  for (let i = 0; i < 3 && row.log - row.checkpointed > SMALL_REMAINDER; i++) row = run(db, 'PASSIVE');
  if (row.log < RESTART_FRAMES) return { log: row.log, checkpointed: row.checkpointed, restarted: false };
  const restart = run(db, 'RESTART');
  return { log: restart.log, checkpointed: restart.checkpointed, restarted: restart.busy === 0 };
}

/** Closes this thread's connections (the pool is being destroyed). */
export function close(): void {
  connections.closeAll();
}
