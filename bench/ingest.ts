/**
 * npm run bench:ingest -- [--count 10000] [--batch 100] [--configs sqlite:hash,sqlite:local,postgres:hash,postgres:local]
 *   [--acknowledged-only] [--progress]
 *
 * Memories per second through POST /v1/memories/batch into one workspace of a fresh database, and the server's
 * peak RSS. "acknowledged" = all batches answered (stored, searchable); "enriched" = the background queue (facts,
 * links) drained too (`--acknowledged-only` stops at the acknowledgements: PGlite enrichment takes most of an
 * hour). Postgres is a real server (bench/postgres.ts: a throwaway durable cluster, or MEMD_BENCH_DATABASE_URL), with
 * memd's default pool of 10 connections. `--progress` prints the acknowledged rate of each tenth of the count, to
 * show a rate that changes as the workspace grows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchPostgres } from './postgres.js';
import { machineLine, peakRssMiB } from './machine.js';
import { syntheticSentences } from './sentences.js';
import { startBenchServer, waitReady } from './server-process.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '10000' },
    batch: { type: 'string', default: '100' },
    inflight: { type: 'string', default: '2' },
    configs: { type: 'string', default: 'sqlite:hash,sqlite:local,postgres:hash,postgres:local' },
    'acknowledged-only': { type: 'boolean', default: false },
    progress: { type: 'boolean', default: false },
  },
});
const count = Number(values.count);
const batchSize = Number(values.batch);
const inflight = Number(values.inflight);

async function post(url: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The acknowledged rate of each tenth of the run, printed as it passes. */
function progressPrinter(started: number) {
  const step = Math.max(1, Math.round(count / 10));
  let printedAt = { created: 0, ms: started };
  return {
    note(created: number) {
      if (created - printedAt.created < step) return;
      const now = performance.now();
      const rate = ((created - printedAt.created) / (now - printedAt.ms)) * 1000;
      console.log(
        `  ${String(created).padStart(8)} acknowledged at ${((now - started) / 1000).toFixed(1)} s: ${rate.toFixed(0)}/s since the last line`,
      );
      printedAt = { created, ms: now };
    },
  };
}

async function queueDrained(url: string): Promise<void> {
  for (;;) {
    const { services } = (await (await fetch(`${url}/health/ready`)).json()) as {
      services: { tasks: { pending: number; running: number } };
    };
    if (services.tasks.pending + services.tasks.running === 0) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function run(storage: string, embedder: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'memd-bench-ingest-'));
  const pg = storage === 'postgres' ? await benchPostgres() : null;
  const env: Record<string, string> = { MEMD_DATA_DIR: dataDir, MEMD_EMBEDDING_PROVIDER: embedder };
  if (pg) {
    console.log(`PostgreSQL: ${pg.describe}`);
    Object.assign(env, {
      MEMD_STORAGE: 'postgres',
      MEMD_DATABASE_URL: pg.url,
      MEMD_DATABASE_SCHEMA: `ingest_${Date.now()}`,
    });
  }
  const server = await startBenchServer(env);
  try {
    await waitReady(server.url);
    const ws = (await post(server.url, '/v1/workspaces', { name: 'ingest' })).workspace.id as string;
    const sentences = syntheticSentences(count);
    const batches: string[][] = [];
    for (let i = 0; i < sentences.length; i += batchSize) batches.push(sentences.slice(i, i + batchSize));
    let next = 0;
    let created = 0;
    const started = performance.now();
    const progress = values.progress ? progressPrinter(started) : null;
    await Promise.all(
      Array.from({ length: inflight }, async () => {
        while (next < batches.length) {
          const batch = batches[next++]!;
          const result = await post(server.url, '/v1/memories/batch', {
            workspace_id: ws,
            operations: batch.map((content) => ({ op: 'create', content })),
          });
          created += result.results.filter((r: { action?: string }) => r.action === 'created').length;
          progress?.note(created);
        }
      }),
    );
    const acknowledged = (performance.now() - started) / 1000;
    let enrichment = 'enrichment not waited for';
    if (!values['acknowledged-only']) {
      await queueDrained(server.url);
      const enriched = (performance.now() - started) / 1000;
      enrichment = `enriched ${(count / enriched).toFixed(0).padStart(6)}/s (${enriched.toFixed(1)} s)`;
    }
    const rss = await peakRssMiB(server.pid);
    console.log(
      `${storage.padEnd(8)} ${embedder.padEnd(5)}  ${count} memories (${created} created)  acknowledged ${(count / acknowledged).toFixed(0).padStart(6)}/s (${acknowledged.toFixed(1)} s)  ` +
        `${enrichment}  peak RSS ${rss} MiB`,
    );
  } finally {
    await server.stop();
    await pg?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`bench:ingest — ${machineLine()}`);
console.log(`batch ${batchSize}, ${inflight} requests in flight, background enrichment running in the same server`);
for (const config of values.configs!.split(',')) {
  const [storage, embedder] = config.split(':') as [string, string];
  await run(storage, embedder);
}
