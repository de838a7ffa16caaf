import type Database from 'better-sqlite3';

/**
 * Prepared statements are reused: Kysely prepares every query it runs (and the reader thread every statement it is
 * sent), better-sqlite3 lets us keep them.
 */
export function withStatementCache(db: Database.Database, capacity = 512): Database.Database {
  const cache = new Map<string, Database.Statement>();
  const prepare = db.prepare.bind(db);
  const cached = ((source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = prepare(source);
      if (cache.size >= capacity) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  }) as Database.Database['prepare'];
  return new Proxy(db, {
    get(target, key) {
      if (key === 'prepare') return cached;
      const value: unknown = Reflect.get(target, key, target);
      // Native methods check their receiver: call them on the real database, not the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
