/**
 * Where a recall's time goes in SQL: `npm run bench:recall-profile`, after `npm run bench:recall` has built its
 * SQLite database (RECALL_BENCH_DIR, RECALL_BENCH_MEMORIES as there). Serves that database in this process,
 * answers 300 questions once to warm up and once timed, and prints the server-side latency and, per SQL
 * statement shape, the total time, the count and the mean. better-sqlite3 runs statements synchronously, so each
 * statement's wall time is its cost. Statements of the main connection only: keyword searches and match counts,
 * links and backlink counts run on the reader thread's connection (src/storage/sqlite/reader.ts, through
 * `SearchEngine.read`) and are not in the table.
 *
 * RECALL_PROFILE_TUNING='{"minDepth":30}' (JSON merged over the default tuning) compares instead: two recall
 * engines on the same storage, the default and the given tuning, answer every question alternately (the order
 * swapped from one question to the next, so both meet the same machine), called in process; printed are each
 * one's p50/p99 and the median and mean of the per-question differences (tuned − default).
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import {
  DEFAULT_TUNING,
  RecallService,
  tunedBy,
  type RecallTuning,
  type TuningOverride,
} from '../src/core/recall/service.js';
import { machineLine, percentile } from './machine.js';
import { questions } from './recall/corpus.js';

const ROOT = process.env.RECALL_BENCH_DIR ?? '/tmp/memd-bench-recall';
const N = Number(process.env.RECALL_BENCH_MEMORIES ?? 100_000);
const QUESTIONS = 300;
const compared = process.env.RECALL_PROFILE_TUNING
  ? (JSON.parse(process.env.RECALL_PROFILE_TUNING) as TuningOverride)
  : null;

const times = new Map<string, { ms: number; n: number }>();
let timing = false;
const prototype = (Database as unknown as { prototype: { prepare(sql: string): Record<string, unknown> } }).prototype;
const prepare = prototype.prepare;
prototype.prepare = function (this: unknown, sql: string) {
  const statement = prepare.call(this, sql);
  // Lists of placeholders differ in length only: one shape.
  const shape = sql.replace(/\?(, \?)+/g, '?…').replace(/\s+/g, ' ');
  for (const method of ['run', 'all', 'get', 'iterate']) {
    const original = statement[method] as ((...args: unknown[]) => unknown) | undefined;
    if (typeof original !== 'function') continue;
    statement[method] = function (this: unknown, ...args: unknown[]) {
      const started = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        if (timing) {
          const entry = times.get(shape) ?? { ms: 0, n: 0 };
          entry.ms += performance.now() - started;
          entry.n++;
          times.set(shape, entry);
        }
      }
    };
  }
  return statement;
};

const app = await createApp(
  loadConfig({
    MEMD_DATA_DIR: join(ROOT, `sqlite-${N}`),
    MEMD_RECALL_CACHE_ENTRIES: '0',
    MEMD_LOG_LEVEL: 'warn',
    MEMD_SANDBOX_SPARE: 'off',
  }),
);
if (compared) {
  await compareTunings(compared);
  process.exit(0);
}
const url = await app.listen(0);
await app.ready();
const recall = async (query: string) => {
  const response = await fetch(`${url}/v1/memories/recall`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workspace_id: 'bench', query }),
  });
  return ((await response.json()) as { search_latency_ms: number }).search_latency_ms;
};
const qs = questions(QUESTIONS);
for (const q of qs) await recall(q);
timing = true;
const latencies: number[] = [];
for (const q of qs) latencies.push(await recall(q));
timing = false;
await app.close();

latencies.sort((a, b) => a - b);
console.log(`bench:recall-profile — ${machineLine()}`);
console.log(
  `${QUESTIONS} recalls (second pass, query vectors cached): search_latency_ms p50 ${percentile(latencies, 50).toFixed(2)}, p99 ${percentile(latencies, 99).toFixed(2)}`,
);
console.log('   total ms    count  ms each  statement');
for (const [sql, e] of [...times].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15)) {
  console.log(
    `${e.ms.toFixed(0).padStart(11)} ${String(e.n).padStart(8)} ${(e.ms / e.n).toFixed(2).padStart(8)}  ${sql.slice(0, 200)}`,
  );
}

/** Default and tuned engines on the same storage, question by question in alternating order (see the header). */
async function compareTunings(override: TuningOverride): Promise<void> {
  await app.services.start();
  const { storage, queryEmbedder, clock } = app.services;
  const engine = (t: RecallTuning) =>
    new RecallService({
      storage,
      queryEmbedder,
      clock,
      llm: null,
      reranker: null,
      log: console,
      cache: { maxEntries: 0, ttlMs: 0 },
      tuning: t,
    });
  const engines = [engine(DEFAULT_TUNING), engine(tunedBy(override))] as const;
  const latency = async (which: 0 | 1, query: string) =>
    (await engines[which].recall({ workspaceId: 'bench', query })).search_latency_ms;
  const qs = questions(QUESTIONS);
  for (const q of qs) for (const which of [0, 1] as const) await latency(which, q);
  const runs: [number[], number[]] = [[], []];
  const differences: number[] = [];
  for (const [i, q] of qs.entries()) {
    const order = i % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const);
    const pair = [0, 0];
    for (const which of order) pair[which] = await latency(which, q);
    runs[0].push(pair[0]!);
    runs[1].push(pair[1]!);
    differences.push(pair[1]! - pair[0]!);
  }
  for (const engine of engines) await engine.close();
  await app.close();
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const line = (xs: number[]) =>
    `p50 ${percentile(sorted(xs), 50).toFixed(2)}, p99 ${percentile(sorted(xs), 99).toFixed(2)}`;
  console.log(`bench:recall-profile — ${machineLine()}`);
  console.log(`${QUESTIONS} questions, each asked of both engines (query vectors cached), search_latency_ms:`);
  console.log(`  default: ${line(runs[0])}`);
  console.log(`  tuned ${JSON.stringify(override)}: ${line(runs[1])}`);
  console.log(
    `  tuned − default: median ${percentile(sorted(differences), 50).toFixed(3)}, mean ${(differences.reduce((a, b) => a + b, 0) / differences.length).toFixed(3)}`,
  );
}
