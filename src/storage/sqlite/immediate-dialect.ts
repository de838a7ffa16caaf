import { CompiledQuery, type DatabaseConnection, type Driver, type QueryCompiler, SqliteDialect } from 'kysely';
import { missingReference } from '../sql/missing-reference.js';
import { LimitExpressionCompiler } from './limit-expression.js';

/**
 * Kysely's SQLite dialect, with every transaction begun as `BEGIN IMMEDIATE`: it takes the write lock at once,
 * waiting for it as `busy_timeout` says. A deferred `BEGIN` takes it at the transaction's first write, and when that
 * write follows a read (a write re-reads what it changes, MemoryStore.getForChange) while the checkpoint thread holds
 * the lock for a RESTART, SQLite refuses the upgrade with SQLITE_BUSY at once, without waiting: an ingest failed so.
 * This connection is the database's only writer, so taking the lock early holds up nobody else.
 *
 * A statement refused for naming a row deleted meanwhile is rethrown as `not_found`, as PostgreSQL's pool does
 * (missing-reference.ts). Its LIMITs are written as expressions (`limitExpression`).
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  override createQueryCompiler(): QueryCompiler {
    return new LimitExpressionCompiler();
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const acquire = driver.acquireConnection.bind(driver);
    // Kysely's SQLite driver hands out its one connection (acquiring waits for it): one wrapper serves.
    let wrapper: DatabaseConnection | undefined;
    driver.acquireConnection = async () => {
      const connection = await acquire();
      wrapper ??= translatingErrors(connection);
      return wrapper;
    };
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}

function translatingErrors(connection: DatabaseConnection): DatabaseConnection {
  return {
    // better-sqlite3 runs a statement synchronously, and Kysely's connection throws its error rather than rejecting
    // (test/storage/missing-reference.test.ts goes through this dialect). Caught as thrown: an async wrapper around
    // every statement cost a SQLite ingest 3-9 % (BENCHMARKS.md, 2026-12-05).
    executeQuery: <R>(query: CompiledQuery) => {
      try {
        return connection.executeQuery<R>(query);
      } catch (error) {
        throw missingReference(error) ?? error;
      }
    },
    streamQuery: <R>(query: CompiledQuery, chunkSize?: number) => connection.streamQuery<R>(query, chunkSize),
  };
}
