import { startPostgresCluster } from '../test/support/postgres-cluster.js';

/**
 * The PostgreSQL server a benchmark runs against: `MEMD_BENCH_DATABASE_URL` when set (a server of your own, left as
 * it is), else a throwaway PostgreSQL 15 cluster with pgvector started for the run, durable (fsync on) and with the
 * settings of docs/postgres-tuning.md, so that the figures are those of a set-up server rather than of `initdb`'s
 * defaults. Needs the server binaries (`../shared/tools/install-postgres`).
 */
export interface BenchPostgres {
  url: string;
  /** What the run used, for the report. */
  describe: string;
  stop(): Promise<void>;
}

/**
 * The throwaway cluster's settings: docs/postgres-tuning.md's, then `MEMD_BENCH_POSTGRES_SETTINGS` (more lines of
 * postgresql.conf separated by `;`, e.g. `huge_pages = off`), so that one run can compare a setting both ways.
 */
export const BENCH_POSTGRES_SETTINGS = [
  "shared_buffers = '2GB'",
  "maintenance_work_mem = '2GB'",
  "effective_cache_size = '8GB'",
  "work_mem = '16MB'",
  'max_parallel_maintenance_workers = 1',
  "max_wal_size = '4GB'",
  ...(process.env.MEMD_BENCH_POSTGRES_SETTINGS ?? '')
    .split(';')
    .map((line) => line.trim())
    .filter((line) => line !== ''),
];

export async function benchPostgres(): Promise<BenchPostgres> {
  const own = process.env.MEMD_BENCH_DATABASE_URL;
  if (own) return { url: own, describe: 'MEMD_BENCH_DATABASE_URL (settings as found)', stop: async () => undefined };
  const cluster = await startPostgresCluster({ durable: true, settings: BENCH_POSTGRES_SETTINGS });
  return {
    url: cluster.url,
    describe: `a throwaway local cluster (fsync on; ${BENCH_POSTGRES_SETTINGS.join(', ')})`,
    stop: () => cluster.stop(),
  };
}
