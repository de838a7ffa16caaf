import { CompiledQuery, SqliteDialect, type DatabaseConnection, type Driver } from 'kysely';

/**
 * Kysely's SQLite dialect, with every transaction begun as `BEGIN IMMEDIATE`: it takes the write lock at once,
 * waiting for it as `busy_timeout` says. A deferred `BEGIN` takes it at the transaction's first write, and when that
 * write follows a read (a write re-reads what it changes, MemoryStore.getForChange) while the checkpoint thread holds
 * the lock for a RESTART, SQLite refuses the upgrade with SQLITE_BUSY at once, without waiting: an ingest failed so.
 * This connection is the database's only writer, so taking the lock early holds up nobody else.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}
