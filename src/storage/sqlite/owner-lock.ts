import Database from 'better-sqlite3';
import { ConfigError } from '../../config.js';

export interface OwnerLock {
  release(): void;
}

const isBusy = (error: unknown): boolean => (error as { code?: string }).code === 'SQLITE_BUSY';

/**
 * One server process per database file: its vector index lives in that process's memory, and its start takes over
 * every task lease in the file, so a second process on the same file would answer from a stale index and run
 * another's tasks. The claim is an exclusive lock that SQLite holds on a companion file (`<database>.lock`, never
 * written) for as long as this connection stays open; the operating system drops it when the process ends, a crash
 * included, so a restart never waits for it.
 */
export function claimDatabase(path: string): OwnerLock {
  const lock = new Database(`${path}.lock`, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    lock.close();
    if (!isBusy(error)) throw error;
    // A refusal to state, not a fault to trace: `npm start` and the CLI print the message alone.
    throw new ConfigError(
      `${path} is in use by another memd process: a SQLite data directory belongs to one server (run several nodes on PostgreSQL)`,
      { cause: error },
    );
  }
  return {
    release() {
      lock.exec('ROLLBACK');
      lock.close();
    },
  };
}
