import { inject } from 'vitest';

/** The real PostgreSQL server of this test run (started by test/support/postgres-global-setup.ts). */
export const testDatabaseUrl = (): string => inject('postgresUrl');

/** Which backend `startServer()` runs memd on: `MEMD_TEST_BACKEND=postgres` (the `postgres` project) or SQLite. */
export const testBackend = (): 'sqlite' | 'postgres' =>
  process.env.MEMD_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
