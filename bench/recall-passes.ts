/**
 * Recall asked again and again of a database bench:scale kept (`SCALE_KEEP=1`): `npx tsx bench/recall-passes.ts`.
 *
 * Starts the built server of a checkout on that data directory (SQLite, hash embedder, result cache off), asks the
 * scale corpus's questions PASSES times, by CONCURRENCY clients at once, and prints per pass the engine latency
 * (`search_latency_ms` less `query_embedding_ms`) p50 / p95 / p99 / mean, recalls a second, and the mean time a
 * recall spent in each phase (`memd_recall_phase_duration_seconds` of /metrics; arms overlap, so they do not add
 * up), and at the end the server's peak RSS. The first pass meets cold caches; later ones show a server that has seen the questions' words. Run it for two
 * checkouts one after the other, alternating, to compare them (one data directory serves one server at a time).
 *
 * On PostgreSQL: PASSES_DATABASE_URL (the server bench:scale wrote to, given it as SCALE_PG_URL) and
 * PASSES_DATABASE_SCHEMA (the schema it wrote, `scale_<size>`); PASSES_DIR is then the server's data directory only.
 *
 * Environment: PASSES_DIR (the data directory, e.g. /tmp/memd-bench-scale/sqlite-1000000), PASSES_SIZE (the size it
 * was built for, 1000000), PASSES_QUESTIONS (a kind, as SCALE_QUESTIONS was: 75), PASSES (3), CONCURRENCY (1),
 * PASSES_ROOT (the checkout whose build runs; this one), HEALTH_PROBES (0: requests a second to `/health/ready`
 * meanwhile, as load balancers and orchestrators send them; their latency is printed per pass). Enrichment of a
 * backlog runs as it would; `MEMD_TASK_POLL_MS=60000 MEMD_TASK_FOREGROUND_WAIT_MS=60000` make it give way to the
 * questions (it still runs in the gaps between a serial client's requests) for quieter figures.
 */
import { ScaleCorpus, type ScaleQuestion } from '../test/support/scale-corpus.js';
import { latencySummary, loadAverages, machineLine, peakRssMiB } from './machine.js';
import { startBenchServer, waitReady } from './server-process.js';

const SIZE = Number(process.env.PASSES_SIZE ?? 1_000_000);
const DIR = process.env.PASSES_DIR ?? `/tmp/memd-bench-scale/sqlite-${SIZE}`;
const PASSES = Number(process.env.PASSES ?? 3);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 1);
const WORKSPACE = 'scale';
const HEALTH_PROBES = Number(process.env.HEALTH_PROBES ?? 0);

const corpus = new ScaleCorpus(SIZE, { questionsPerKind: Number(process.env.PASSES_QUESTIONS ?? 75) });
const DATABASE_URL = process.env.PASSES_DATABASE_URL;
const postgres: Record<string, string> = DATABASE_URL
  ? {
      MEMD_STORAGE: 'postgres',
      MEMD_DATABASE_URL: DATABASE_URL,
      MEMD_DATABASE_SCHEMA: process.env.PASSES_DATABASE_SCHEMA ?? `scale_${SIZE}`,
    }
  : {};
console.log(
  `${machineLine()}; ${DATABASE_URL ? `PostgreSQL, schema ${postgres.MEMD_DATABASE_SCHEMA}` : DIR}, ` +
    `${corpus.questions.length} questions, ${CONCURRENCY} at once`,
);
const server = await startBenchServer(
  { MEMD_DATA_DIR: DIR, MEMD_EMBEDDING_PROVIDER: 'hash', MEMD_RECALL_CACHE_ENTRIES: '0', ...postgres },
  process.env.PASSES_ROOT,
);
await waitReady(server.url);

/** Seconds spent in each recall phase so far. */
async function phaseSeconds(): Promise<Map<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const sums = text.matchAll(/^memd_recall_phase_duration_seconds_sum\{phase="([^"]+)"\} (\S+)$/gm);
  return new Map([...sums].map(([, phase, seconds]) => [phase!, Number(seconds)]));
}

async function engineMs(question: ScaleQuestion): Promise<number> {
  const response = await fetch(`${server.url}/v1/memories/recall`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workspace_id: WORKSPACE, query: question.text, limit: 10 }),
  });
  const body = (await response.json()) as { search_latency_ms: number; query_embedding_ms: number };
  if (!response.ok) throw new Error(`recall: ${response.status} ${JSON.stringify(body)}`);
  return body.search_latency_ms - body.query_embedding_ms;
}

/** Sends HEALTH_PROBES readiness probes a second, each on its own schedule, until `done`; their latencies in ms. */
async function probeHealth(done: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  const probes: Array<Promise<void>> = [];
  while (!done()) {
    probes.push(
      (async () => {
        const sent = performance.now();
        await (await fetch(`${server.url}/health/ready`)).arrayBuffer();
        latencies.push(performance.now() - sent);
      })(),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000 / HEALTH_PROBES));
  }
  await Promise.all(probes);
  return latencies;
}

for (let pass = 1; pass <= PASSES; pass++) {
  const before = await phaseSeconds();
  const queue = [...corpus.questions];
  const engine: number[] = [];
  let asked = false;
  const probes = HEALTH_PROBES > 0 ? probeHealth(() => asked) : Promise.resolve([]);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let question = queue.shift(); question; question = queue.shift()) engine.push(await engineMs(question));
    }),
  );
  const perSecond = (engine.length * 1000) / (performance.now() - started);
  asked = true;
  const health = await probes;
  const phases = [...(await phaseSeconds())]
    .map(([phase, seconds]) => [phase, ((seconds - (before.get(phase) ?? 0)) * 1000) / engine.length] as const)
    .filter(([, ms]) => ms >= 0.05)
    .sort((a, b) => b[1] - a[1]);
  console.log(
    `pass ${pass}: engine p50 / p95 / p99 / mean ${latencySummary(engine)}, ${perSecond.toFixed(1)} recalls/s; ` +
      `load ${loadAverages()}`,
  );
  console.log(`  ms a recall by phase: ${phases.map(([phase, ms]) => `${phase} ${ms.toFixed(2)}`).join(', ')}`);
  if (health.length > 0)
    console.log(`  /health/ready p50 / p95 / p99 / mean ${latencySummary(health)} (${health.length})`);
}
console.log(`server peak RSS ${await peakRssMiB(server.pid)} MiB`);
await server.stop();
