/**
 * What metrics cost on the recall path: `npm run bench:telemetry`. One server in this process (SQLite, the
 * deterministic hash embedder, recall cache off) holds TELEMETRY_BENCH_MEMORIES memories (default 20,000); two recall
 * engines over the same storage, one reporting to the server's metrics (as served) and one reporting nowhere, answer
 * the same questions alternately (the order swapped from one question to the next, so both meet the same machine).
 * Printed: each one's p50/p99 and the median and mean of the per-question differences (metrics − none). Tracing stays
 * off, as by default.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { MemoryWriteScope } from '../src/core/memories/service.js';
import { RecallService } from '../src/core/recall/service.js';
import { machineLine, percentile } from './machine.js';
import { memories, questions } from './recall/corpus.js';

const N = Number(process.env.TELEMETRY_BENCH_MEMORIES ?? 20_000);
const QUESTIONS = 500;

const dir = mkdtempSync(join(tmpdir(), 'memd-bench-telemetry-'));
const app = await createApp(
  loadConfig({ MEMD_DATA_DIR: dir, MEMD_EMBEDDING_PROVIDER: 'hash', MEMD_RECALL_CACHE_ENTRIES: '0', MEMD_PORT: '0' }),
  { logLevel: 'silent' },
);
await app.listen(0);
await app.ready();
const { services } = app;
await services.tasks.stop();
const texts = memories(N);
await services.workspaces.ensure('_default');
// Without the duplicate check: the corpus repeats itself, and every text should stay a memory.
const scope: MemoryWriteScope = {
  ...(await services.workspaces.writeScope('_default')),
  dedup: { enabled: false, mergeThreshold: 1, updateThreshold: 1 },
};
for (let start = 0; start < texts.length; start += 500) {
  await services.memories.createMany(
    scope,
    texts.slice(start, start + 500).map((content) => ({ content })),
  );
}
// Without background enrichment: no facts; the arms, fusion and ranking run as they do.

const deps = {
  storage: services.storage,
  queryEmbedder: services.queryEmbedder,
  clock: services.clock,
  llm: null,
  reranker: null,
  log: app.http.log,
  cache: { maxEntries: 0, ttlMs: 0 },
};
const engines = {
  metrics: new RecallService({ ...deps, telemetry: services.observability }),
  none: new RecallService(deps),
};
const asked = questions(QUESTIONS);
const ask = (engine: RecallService, query: string) => engine.recall({ workspaceId: '_default', query, limit: 10 });
for (const query of asked.slice(0, 100)) {
  await ask(engines.metrics, query);
  await ask(engines.none, query);
}
const times = { metrics: [] as number[], none: [] as number[] };
const differences: number[] = [];
for (const [i, query] of asked.entries()) {
  const order = i % 2 === 0 ? (['metrics', 'none'] as const) : (['none', 'metrics'] as const);
  const took: Record<string, number> = {};
  for (const name of order) {
    const started = performance.now();
    await ask(engines[name], query);
    took[name] = performance.now() - started;
    times[name].push(took[name]!);
  }
  differences.push(took.metrics! - took.none!);
}
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const ms = (x: number) => `${x.toFixed(3)} ms`;
console.log(machineLine());
console.log(`${N} memories, ${QUESTIONS} questions, recall cache off, limit 10`);
for (const name of ['none', 'metrics'] as const)
  console.log(
    `${name.padEnd(8)} p50 ${ms(percentile(sorted(times[name]), 50))}  p99 ${ms(percentile(sorted(times[name]), 99))}`,
  );
console.log(
  `metrics − none per question: median ${ms(percentile(sorted(differences), 50))}, mean ${ms(differences.reduce((a, b) => a + b, 0) / differences.length)}`,
);
await app.close();
rmSync(dir, { recursive: true, force: true });
