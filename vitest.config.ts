import { defineConfig } from 'vitest/config';

const shared = {
  pool: 'forks' as const,
  // A test file runs in a worker process that ran others of its project before it, with the modules they loaded:
  // loading the server's modules anew for every file cost more than a third of the run (test/api, test/core and
  // test/conformance on SQLite: 440 s isolated, 286 s not, one after the other on one machine, 2026-11-27). Tests
  // must therefore leave no global state behind (environment variables set are deleted again, servers stopped).
  // Each project keeps workers of its own, so the `postgres` project's environment never reaches a SQLite file.
  isolate: false,
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

/**
 * API test files the `postgres` project leaves out, each because what it checks exists only on SQLite. Everything
 * else under test/api and test/clients runs on both backends.
 */
const SQLITE_ONLY = [
  // The lock on the data directory that keeps a second process off one SQLite file; Postgres has no such directory.
  'test/api/data-directory.test.ts',
  // SIGKILL mid-ingest on a SQLite file (WAL replay, the vector snapshot beside it); the Postgres counterpart is
  // test/api/multi-node-tasks.test.ts.
  'test/api/durability.test.ts',
];

/** Several memd nodes on one database: only Postgres can be shared so (SQLite is one process per file). */
const POSTGRES_ONLY = ['test/api/multi-node*.test.ts', 'test/api/database-away-at-start.test.ts'];

export default defineConfig({
  test: {
    // One real PostgreSQL server for the whole run (or MEMD_TEST_DATABASE_URL): the conformance suite and the
    // `postgres` project use it.
    globalSetup: ['test/support/postgres-global-setup.ts'],
    // Two cores, and a test file is often waiting on a child process (a CLI run, a server, an interpreter's boot):
    // three files at once keep both cores busier than two (NOTES.md, "Tests and CI").
    maxWorkers: 3,
    projects: [
      {
        test: { ...shared, name: 'sqlite', include: ['test/**/*.test.ts'], exclude: POSTGRES_ONLY },
      },
      {
        // The API again, with every startServer() on the real PostgreSQL server (test/support/server.ts), and the
        // tests of several nodes on one database.
        test: {
          ...shared,
          name: 'postgres',
          include: ['test/api/**/*.test.ts', 'test/clients/**/*.test.ts'],
          exclude: SQLITE_ONLY,
          env: { MEMD_TEST_BACKEND: 'postgres' },
        },
      },
    ],
  },
});
