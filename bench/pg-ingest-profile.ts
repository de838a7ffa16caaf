/**
 * Where PostgreSQL ingest time goes (issue 22): `npx tsx bench/pg-ingest-profile.ts` after a build.
 *
 * Starts a throwaway durable cluster with the settings of bench/postgres.ts and pg_stat_statements, and one built
 * server on it (PROBE_ROOT: the directory of a built copy, default this one); sends PROBE_N (20000) memories of the
 * scale corpus through `POST /v1/memories/batch` (100 a call, PROBE_IN_FLIGHT (4) in flight, hash embedder), the first
 * 80% unmeasured. Over the last 20% it prints the rate, the CPU the cluster's processes and the server used (from
 * /proc: a figure the machine's load does not inflate, where statement times and rates include waiting for a core), WAL
 * and commits, and the statements by total time. PROBE_RECALL=n then asks n questions a kind and prints the recall
 * statements; PROBE_HOLD=1 keeps the cluster until SIGUSR2 (for EXPLAIN). PROBE_POOL (10), PROBE_TASKS (task
 * concurrency).
 */
import pg from 'pg';
import { ScaleCorpus } from '../test/support/scale-corpus.js';
import { startPostgresCluster } from '../test/support/postgres-cluster.js';
import { BENCH_POSTGRES_SETTINGS } from './postgres.js';
import { startBenchServer, waitReady } from './server-process.js';

const N = Number(process.env.PROBE_N ?? 20000);
const POOL = process.env.PROBE_POOL ?? '10';
const IN_FLIGHT = Number(process.env.PROBE_IN_FLIGHT ?? 4);
const ROOT = process.env.PROBE_ROOT;
const cluster = await startPostgresCluster({
  durable: true,
  settings: [
    ...BENCH_POSTGRES_SETTINGS,
    "shared_preload_libraries = 'pg_stat_statements'",
    'pg_stat_statements.track = all',
    'track_io_timing = on',
  ],
});
const admin = new pg.Client({ connectionString: cluster.url });
await admin.connect();
await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
const env: Record<string, string> = {
  MEMD_DATA_DIR: '/tmp/pgprobe/data',
  MEMD_EMBEDDING_PROVIDER: 'hash',
  MEMD_RECALL_CACHE_ENTRIES: '0',
  MEMD_STORAGE: 'postgres',
  MEMD_DATABASE_URL: cluster.url,
  MEMD_DATABASE_SCHEMA: 'probe',
  MEMD_DATABASE_POOL_SIZE: POOL,
  ...(process.env.PROBE_TASKS ? { MEMD_TASK_CONCURRENCY: process.env.PROBE_TASKS } : {}),
};
const server = await startBenchServer(env, ROOT);
try {
  await waitReady(server.url);
  const post = async (path: string, body: unknown) => {
    const r = await fetch(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const j = await r.json();
    if (!r.ok) throw new Error(JSON.stringify(j).slice(0, 300));
    return j as any;
  };
  await post('/v1/workspaces', { id: 'scale', name: 'probe' });
  const corpus = new ScaleCorpus(N, { questionsPerKind: 10 });
  const ingest = async (from: number, to: number) => {
    let next = from;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        for (;;) {
          const at = next;
          if (at >= to) return;
          next += 100;
          const r = await post('/v1/memories/batch', {
            workspace_id: 'scale',
            operations: corpus.slice(at, Math.min(at + 100, to)).map((content) => ({ op: 'create', content })),
          });
          if (r.failed) throw new Error('failed');
        }
      }),
    );
    return ((to - from) * 1000) / (performance.now() - t);
  };
  const warm = Math.floor(N * 0.8);
  console.log(`warm ${warm}: ${(await ingest(0, warm)).toFixed(0)} /s`);
  await admin.query('SELECT pg_stat_statements_reset()');
  const wal0 = (await admin.query('SELECT wal_records, wal_bytes::float8, wal_sync, wal_write FROM pg_stat_wal'))
    .rows[0];
  const x0 = (await admin.query("SELECT xact_commit FROM pg_stat_database WHERE datname='postgres'")).rows[0];
  const dataDir = (await admin.query('SHOW data_directory')).rows[0].data_directory as string;
  const { readFileSync, readdirSync } = await import('node:fs');
  const postmaster = Number(readFileSync(`${dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);
  const stat = (pid: number) =>
    readFileSync(`/proc/${pid}/stat`, 'utf8')
      .slice(readFileSync(`/proc/${pid}/stat`, 'utf8').lastIndexOf(')') + 2)
      .split(' ');
  const ticks = (pid: number, children = false) => {
    try {
      const f = stat(pid);
      return Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0);
    } catch {
      return 0;
    }
  };
  const pgCpu = () =>
    ticks(postmaster, true) +
    readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .reduce((sum, d) => {
        try {
          return stat(Number(d))[1] === String(postmaster) ? sum + ticks(Number(d)) : sum;
        } catch {
          return sum;
        }
      }, 0);
  const cpu0 = { pg: pgCpu(), node: ticks(server.pid) };
  const t0 = performance.now();
  const rate = await ingest(warm, N);
  const cpu1 = { pg: pgCpu(), node: ticks(server.pid) };
  console.log(
    `cpu during the measured ingest: postgres ${((cpu1.pg - cpu0.pg) / 100).toFixed(1)} s, server ${((cpu1.node - cpu0.node) / 100).toFixed(1)} s = ${((10 * (cpu1.pg - cpu0.pg + cpu1.node - cpu0.node)) / (N - warm)).toFixed(2)} ms a memory`,
  );
  const wall = performance.now() - t0;
  console.log(`measured ${N - warm} at ${warm}..${N}: ${rate.toFixed(0)} /s, wall ${wall.toFixed(0)} ms`);
  const wal1 = (await admin.query('SELECT wal_records, wal_bytes::float8, wal_sync, wal_write FROM pg_stat_wal'))
    .rows[0];
  const x1 = (await admin.query("SELECT xact_commit FROM pg_stat_database WHERE datname='postgres'")).rows[0];
  console.log(
    `wal records ${wal1.wal_records - wal0.wal_records}, bytes ${((wal1.wal_bytes - wal0.wal_bytes) / 1e6).toFixed(1)} MB, syncs ${wal1.wal_sync - wal0.wal_sync}, commits ${x1.xact_commit - x0.xact_commit}`,
  );
  const { rows } = await admin.query(
    `SELECT calls, round(total_exec_time::numeric,0) AS total_ms, round(mean_exec_time::numeric,3) AS mean_ms, rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 150) AS q FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 18`,
  );
  let sum = 0;
  for (const r of rows) sum += Number(r.total_ms);
  for (const r of rows)
    console.log(
      `${String(r.total_ms).padStart(7)} ms ${String(r.calls).padStart(6)}x ${String(r.mean_ms).padStart(8)} ${r.q}`,
    );
  console.log(`top total ${sum} ms (wall ${wall.toFixed(0)})`);
  if (process.env.PROBE_RECALL) {
    const qs = new ScaleCorpus(N, { questionsPerKind: Number(process.env.PROBE_RECALL) }).questions;
    for (const q of qs.slice(0, 20))
      await post('/v1/memories/recall', { workspace_id: 'scale', query: q.text, limit: 10 });
    await admin.query('SELECT pg_stat_statements_reset()');
    const engine: number[] = [];
    for (const q of qs) {
      const r = await post('/v1/memories/recall', { workspace_id: 'scale', query: q.text, limit: 10 });
      engine.push(r.search_latency_ms - r.query_embedding_ms);
    }
    engine.sort((a, b) => a - b);
    const at = (p: number) => engine[Math.min(engine.length - 1, Math.floor((p / 100) * engine.length))]!.toFixed(1);
    console.log(`recall ${qs.length}: engine p50 ${at(50)} p95 ${at(95)} p99 ${at(99)}`);
    const { rows } = await admin.query(
      `SELECT calls, round(total_exec_time::numeric,0) AS total_ms, round(mean_exec_time::numeric,3) AS mean_ms, round(max_exec_time::numeric,1) AS max_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 400) AS q FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 14`,
    );
    for (const r of rows)
      console.log(
        `${String(r.total_ms).padStart(7)} ms ${String(r.calls).padStart(6)}x mean ${String(r.mean_ms).padStart(8)} max ${r.max_ms} ${r.q}`,
      );
  }
  if (process.env.PROBE_HOLD) {
    console.log(`holding: ${cluster.url} schema probe`);
    await new Promise((r) => process.once('SIGUSR2', r));
  }
} finally {
  await server.stop();
  await admin.end();
  await cluster.stop();
}
