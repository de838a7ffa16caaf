import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL server every test file shares (each in schemas of its own): `testDatabaseUrl()` reads it. */
    postgresUrl: string;
  }
}

/**
 * Vitest global setup: one real PostgreSQL server for the whole run, started before the first test file and stopped
 * (and its data removed) after the last, whether the tests passed or not. `MEMD_TEST_DATABASE_URL` names a server of
 * your own instead; then nothing is started.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const external = process.env.MEMD_TEST_DATABASE_URL;
  if (external) {
    project.provide('postgresUrl', external);
    return undefined;
  }
  const cluster = await startPostgresCluster();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
