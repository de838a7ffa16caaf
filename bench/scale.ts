/**
 * Recall at scale and on both backends (issues 22 and 24): `npm run bench:scale`.
 *
 * For each size, each backend gets the corpus of test/support/scale-corpus.ts (people, actions, objects, places; each
 * question has exactly one right memory, among the first 100,000) through `POST /v1/memories/batch` of the built
 * server in its own process (`dist/src/main.js`, hash embedder, result cache off): batches of 100, 4 in flight, as
 * the issues measured. Printed per backend: ingest rate over time, server RSS, the background backlog after the
 * ingest. Then every question is asked of every backend in turn, alternating (one backend's load never lands on the
 * other's figures): hit@1/5/10 per kind, engine latency (`search_latency_ms` less `query_embedding_ms`) and round
 * trip percentiles, and how often each backend returns the first one's top 10. With SCALE_DRAIN=1 the backlog is
 * then drained (its rate printed) and the questions asked again: recall must not depend on it. Last, each server is
 * stopped and started again (stop and ready times).
 *
 * Environment: SCALE_SIZES (100000; e.g. 100000,1000000), SCALE_BACKENDS (sqlite,postgres), SCALE_PG_URL (a
 * PostgreSQL server with pgvector; each size gets its own schema, dropped first; unset: the server of
 * bench/postgres.ts, MEMD_BENCH_DATABASE_URL or a throwaway cluster started for the run),
 * SCALE_DIR (/tmp/memd-bench-scale), SCALE_QUESTIONS (250 a kind), SCALE_PASSES (1: how many times the questions are
 * asked right after the ingest; later passes find the words' counts cached, as a server that has answered for a while
 * does), SCALE_DRAIN (0), SCALE_PG_POOL (10),
 * SCALE_KEEP=1 (reuse what an earlier run ingested at that size, with the same SCALE_QUESTIONS: the questions pick
 * their right memories), SCALE_SHOW_DIFF (print the
 * results of this many questions whose top 10 differ between the two backends), SCALE_BASELINE (the directory of
 * a built copy of another version, e.g. `git archive main | tar -x -C /tmp/main`, node_modules linked, `npx tsc -p
 * tsconfig.build.json`: its servers run beside this build's, named `<backend>@baseline`, each in its own data
 * directory and schema; ingest and questions alternate between all of them), SCALE_BASELINE_BACKENDS (those of
 * SCALE_BACKENDS the baseline runs too; all of them), SCALE_EMBEDDER (hash; `local` is a model that knows synonyms,
 * at the sizes it can ingest), SCALE_NAMES (first × last names in use, e.g. `10x10`: 100 names make each name as
 * common in 10,000 memories as the full 100 × 100 are in 1,000,000), SCALE_PG_INDEXES (e.g. `hnsw,ivfflat`: a
 * PostgreSQL server per vector index kind, `postgres+<kind>`, each in its own schema), SCALE_PG_WORKERS (0; n: each
 * PostgreSQL server measured is an API-only node, `MEMD_TASK_CONCURRENCY=0`, and n worker nodes on its schema run
 * the background tasks: writes and questions go to the API node only).
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { QUESTION_KINDS, ScaleCorpus, type ScaleQuestion } from '../test/support/scale-corpus.js';
import { loadAverages, machineLine, peakRssMiB, percentile } from './machine.js';
import { benchPostgres } from './postgres.js';
import { startBenchServer, waitReady, type BenchServer } from './server-process.js';

const SIZES = (process.env.SCALE_SIZES ?? '100000').split(',').map(Number);
const BACKENDS = (process.env.SCALE_BACKENDS ?? 'sqlite,postgres').split(',').map((b) => b.trim());
const benchServer =
  process.env.SCALE_PG_URL ||
  !(BACKENDS.includes('postgres') || process.env.SCALE_BASELINE_BACKENDS?.includes('postgres'))
    ? null
    : await benchPostgres();
const PG_URL = process.env.SCALE_PG_URL ?? benchServer?.url;
const ROOT = process.env.SCALE_DIR ?? '/tmp/memd-bench-scale';
const PER_KIND = Number(process.env.SCALE_QUESTIONS ?? 250);
const DRAIN = process.env.SCALE_DRAIN === '1';
const KEEP = process.env.SCALE_KEEP === '1';
const POOL = process.env.SCALE_PG_POOL ?? '10';
const SHOW_DIFF = Number(process.env.SCALE_SHOW_DIFF ?? 0);
/** How many times the questions are asked right after the ingest: the first pass counts every word anew. */
const PASSES = Math.max(1, Number(process.env.SCALE_PASSES ?? 1));
const BASELINE = process.env.SCALE_BASELINE;
const BASELINE_BACKENDS = (process.env.SCALE_BASELINE_BACKENDS ?? BACKENDS.join(',')).split(',').map((b) => b.trim());
const EMBEDDER = process.env.SCALE_EMBEDDER ?? 'hash';
const [FIRST_NAMES, LAST_NAMES] = (process.env.SCALE_NAMES ?? '100x100').split('x').map(Number);
const PG_INDEXES = process.env.SCALE_PG_INDEXES?.split(',').map((kind) => kind.trim());
const PG_WORKERS = Number(process.env.SCALE_PG_WORKERS ?? 0);
interface Variant {
  name: string;
  root: string | undefined;
  /** MEMD_DATABASE_VECTOR_INDEX of a PostgreSQL server (SCALE_PG_INDEXES); unset: the server's default. */
  vectorIndex?: string;
}
/** A PostgreSQL variant once per index kind of SCALE_PG_INDEXES (named `postgres+<kind>`), others as they are. */
const byIndex = (variant: Variant): Variant[] =>
  variant.name.startsWith('postgres') && PG_INDEXES
    ? PG_INDEXES.map((vectorIndex) => ({ ...variant, name: `${variant.name}+${vectorIndex}`, vectorIndex }))
    : [variant];
/** Every server of the run: this build's backends, then the baseline's (named `<backend>@baseline`). */
const VARIANTS: Variant[] = [
  ...BACKENDS.map((name) => ({ name, root: undefined })),
  ...(BASELINE ? BASELINE_BACKENDS.map((name) => ({ name: `${name}@baseline`, root: BASELINE })) : []),
].flatMap(byIndex);
const WORKSPACE = 'scale';
const BATCH = 100;
const IN_FLIGHT = 4;

const log = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function json<T = any>(url: string, body?: unknown): Promise<T> {
  const response = await fetch(
    url,
    body === undefined
      ? {}
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  const value = (await response.json()) as T;
  if (!response.ok && response.status !== 503)
    throw new Error(`${url}: ${response.status} ${JSON.stringify(value).slice(0, 300)}`);
  return value;
}

interface Backend {
  name: string;
  env: Record<string, string>;
  /** A built copy of another version (SCALE_BASELINE); unset: this one. */
  root: string | undefined;
  server: BenchServer | null;
  /** Worker nodes beside an API-only PostgreSQL server (SCALE_PG_WORKERS); they run its background tasks. */
  workers: BenchServer[];
}

async function backlog(url: string): Promise<{ pending: number; running: number; failed: number }> {
  return (
    await json<{ services: { tasks: { pending: number; running: number; failed: number } } }>(`${url}/health/ready`)
  ).services.tasks;
}

function percentiles(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => percentile(sorted, p).toFixed(1);
  return `p50 ${at(50)} / p95 ${at(95)} / p99 ${at(99)} ms`;
}

/**
 * The corpus through the batch endpoint, 4 batches in flight, into every backend: a tenth at a time to each in
 * turn (who goes first alternates), so that the machine's load and each other's background work land on all alike.
 * Each backend's rate is its own memories over its own time; per tenth as well.
 */
async function ingest(backends: Backend[], corpus: ScaleCorpus): Promise<void> {
  for (const backend of backends)
    await json(`${backend.server!.url}/v1/workspaces`, { id: WORKSPACE, name: 'scale bench' });
  const tenth = Math.max(BATCH, Math.ceil(corpus.size / 10 / BATCH) * BATCH);
  const spent = new Map(backends.map((b) => [b.name, { ms: 0, rates: [] as string[] }]));
  for (let from = 0, turn = 0; from < corpus.size; from += tenth, turn++) {
    const to = Math.min(from + tenth, corpus.size);
    for (const backend of turn % 2 === 0 ? backends : [...backends].reverse()) {
      const url = backend.server!.url;
      let next = from;
      const started = performance.now();
      const worker = async () => {
        for (;;) {
          const at = next;
          if (at >= to) return;
          next += BATCH;
          const operations = corpus.slice(at, Math.min(at + BATCH, to)).map((content) => ({ op: 'create', content }));
          const result = await json<{ failed: number }>(`${url}/v1/memories/batch`, {
            workspace_id: WORKSPACE,
            operations,
          });
          if (result.failed > 0) throw new Error(`${backend.name}: batch at ${at}: ${result.failed} failed`);
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      const ms = performance.now() - started;
      const own = spent.get(backend.name)!;
      own.ms += ms;
      own.rates.push(`${Math.round(((to - from) * 1000) / ms)}`);
    }
  }
  for (const backend of backends) {
    const { ms, rates } = spent.get(backend.name)!;
    const tasks = await backlog(backend.server!.url);
    log(
      `  ${backend.name}: ingested ${corpus.size} in ${(ms / 1000).toFixed(1)} s = ${Math.round((corpus.size * 1000) / ms)} /s overall; per tenth ${rates.join(', ')} /s`,
    );
    log(
      `  ${backend.name}: backlog after the ingest: ${tasks.pending} tasks pending, ${tasks.running} running; server peak RSS ${await peakRssMiB(backend.server!.pid)} MiB; load ${loadAverages()}`,
    );
  }
}

interface Asked {
  rank: number;
  engine: number;
  client: number;
  top: string[];
  /** Each result's boosted score and signals, for SCALE_SHOW_DIFF. */
  why: string[];
}

async function ask(backend: Backend, question: ScaleQuestion, answer: string): Promise<Asked> {
  const started = performance.now();
  const body = await json<{
    memories: Array<{ content: string; boosted_score: number; match_signals: string[] }>;
    search_latency_ms: number;
    query_embedding_ms: number;
  }>(`${backend.server!.url}/v1/memories/recall`, {
    workspace_id: WORKSPACE,
    query: question.text,
    limit: 10,
  });
  const client = performance.now() - started;
  const top = body.memories.map((m) => m.content);
  const why = body.memories.map((m) => `${m.boosted_score.toFixed(4)} ${m.match_signals.join(',')} ${m.content}`);
  return { rank: top.indexOf(answer), engine: body.search_latency_ms - body.query_embedding_ms, client, top, why };
}

/** Each recall phase's total seconds and count so far, from the server's metrics. */
async function phaseTotals(url: string): Promise<Map<string, { sum: number; count: number }>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const totals = new Map<string, { sum: number; count: number }>();
  for (const [, field, phase, value] of text.matchAll(
    /^memd_recall_phase_duration_seconds_(sum|count)\{phase="(\w+)"\} (\S+)$/gm,
  )) {
    const total = totals.get(phase!) ?? { sum: 0, count: 0 };
    total[field as 'sum' | 'count'] = Number(value);
    totals.set(phase!, total);
  }
  return totals;
}

/** The mean milliseconds of each recall phase between two readings, and how often it ran (`rank` holds the arms). */
function phaseMeans(before: Map<string, { sum: number; count: number }>, after: typeof before): string {
  return [...after]
    .map(([phase, { sum, count }]) => {
      const was = before.get(phase) ?? { sum: 0, count: 0 };
      const n = count - was.count;
      return n === 0 ? '' : `${phase} ${(((sum - was.sum) * 1000) / n).toFixed(2)} (${n})`;
    })
    .filter(Boolean)
    .join(', ');
}

/** Every question of every backend, alternating; quality per kind, latency, and agreement between backends. */
async function questions(backends: Backend[], corpus: ScaleCorpus, label: string): Promise<void> {
  const results = new Map(backends.map((b) => [b.name, [] as Array<Asked & { kind: string }>]));
  const phasesBefore = await Promise.all(backends.map((b) => phaseTotals(b.server!.url)));
  for (const [i, question] of corpus.questions.entries()) {
    const answer = corpus.memory(question.answer);
    // Alternate which backend goes first.
    const order = i % 2 === 0 ? backends : [...backends].reverse();
    for (const backend of order)
      results.get(backend.name)!.push({ ...(await ask(backend, question, answer)), kind: question.kind });
  }
  log(`  ${label}: ${corpus.questions.length} questions (${PER_KIND} a kind), limit 10, load ${loadAverages()}`);
  log(`  | kind | ${backends.map((b) => `${b.name} hit@1 / @5 / @10`).join(' | ')} |`);
  log(`  |---|${backends.map(() => '---').join('|')}|`);
  for (const kind of [...QUESTION_KINDS, 'all'] as const) {
    const cells = backends.map((b) => {
      const rows = results.get(b.name)!.filter((r) => kind === 'all' || r.kind === kind);
      const hit = (k: number) => (rows.filter((r) => r.rank >= 0 && r.rank < k).length / rows.length).toFixed(3);
      return `${hit(1)} / ${hit(5)} / ${hit(10)}`;
    });
    log(`  | ${kind} | ${cells.join(' | ')} |`);
  }
  for (const b of backends) {
    const rows = results.get(b.name)!;
    log(
      `  ${b.name}: engine ${percentiles(rows.map((r) => r.engine))}; round trip ${percentiles(rows.map((r) => r.client))}; server peak RSS ${await peakRssMiB(b.server!.pid)} MiB`,
    );
    // Which kinds make the tail: a kind's p99 over 100 questions is its second slowest, so read it as a hint.
    const byKind = QUESTION_KINDS.map(
      (kind) => `${kind} ${percentiles(rows.filter((r) => r.kind === kind).map((r) => r.engine))}`,
    );
    log(`  ${b.name}: engine by kind: ${byKind.join('; ')}`);
    const phases = phaseMeans(phasesBefore[backends.indexOf(b)]!, await phaseTotals(b.server!.url));
    log(`  ${b.name}: mean ms by recall phase: ${phases}`);
  }
  // Agreement of the first backend with each other one (SCALE_SHOW_DIFF prints the first pair's differences).
  for (const [n, other] of backends.slice(1).entries()) {
    const [a, b] = [backends[0]!, other].map((x) => results.get(x.name)!);
    const same = (kind: string, sameOrder: boolean) => {
      const pairs = a!.map((r, i) => [r, b![i]!] as const).filter(([r]) => kind === 'all' || r.kind === kind);
      const agree = pairs.filter(([x, y]) =>
        sameOrder
          ? x.top.join('\n') === y.top.join('\n')
          : [...x.top].sort().join('\n') === [...y.top].sort().join('\n'),
      );
      return (agree.length / pairs.length).toFixed(3);
    };
    log(
      `  same top 10 (as a set / in the same order), ${backends[0]!.name} vs ${other.name}: ${[...QUESTION_KINDS, 'all'].map((k) => `${k} ${same(k, false)} / ${same(k, true)}`).join('; ')}`,
    );
    let shown = n === 0 ? 0 : SHOW_DIFF;
    for (const [i, r] of a!.entries()) {
      if (shown >= SHOW_DIFF || [...r.top].sort().join('\n') === [...b![i]!.top].sort().join('\n')) continue;
      shown++;
      log(`  differs: ${corpus.questions[i]!.text}`);
      for (const [name, rows] of [
        [backends[0]!.name, a!],
        [other.name, b!],
      ] as const)
        log(`    ${name}:\n      ${rows[i]!.why.join('\n      ')}`);
    }
  }
}

async function drain(backend: Backend): Promise<void> {
  const url = backend.server!.url;
  const started = performance.now();
  const first = (await backlog(url)).pending;
  let last = first;
  for (;;) {
    const { pending, running } = await backlog(url);
    if (pending + running === 0) break;
    if (performance.now() - started > 60_000 * 60) {
      log(`  ${backend.name}: backlog not drained after an hour: ${pending} pending`);
      return;
    }
    last = pending;
    await sleep(5_000);
  }
  const seconds = (performance.now() - started) / 1000;
  log(
    `  ${backend.name}: backlog of ${first} drained in ${seconds.toFixed(0)} s = ${Math.round(first / seconds)} tasks/s (last seen ${last}); peak RSS ${await peakRssMiB(backend.server!.pid)} MiB`,
  );
}

async function restart(backend: Backend): Promise<void> {
  let t = performance.now();
  await backend.server!.stop();
  const stopped = (performance.now() - t) / 1000;
  t = performance.now();
  backend.server = await startBenchServer(backend.env, backend.root);
  await waitReady(backend.server.url);
  const ready = (performance.now() - t) / 1000;
  log(
    `  ${backend.name}: stop ${stopped.toFixed(1)} s, restart to ready ${ready.toFixed(1)} s, RSS ${await peakRssMiB(backend.server.pid)} MiB`,
  );
}

async function freshSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
  await client.end();
}

log(`machine: ${machineLine()}, load ${loadAverages()}`);
log(
  `sizes ${SIZES.join(', ')}; backends ${VARIANTS.map((v) => v.name).join(', ')}${BASELINE ? ` (baseline: ${BASELINE})` : ''}; batches of ${BATCH}, ${IN_FLIGHT} in flight; ${EMBEDDER} embedder; ${FIRST_NAMES} × ${LAST_NAMES} names`,
);
if (benchServer) log(`postgres: ${benchServer.describe}`);
try {
  for (const size of SIZES) {
    log(`\n== ${size} memories`);
    const corpus = new ScaleCorpus(size, {
      questionsPerKind: PER_KIND,
      firstNames: FIRST_NAMES,
      lastNames: LAST_NAMES,
    });
    const backends: Backend[] = [];
    const fresh: Backend[] = [];
    for (const { name, root, vectorIndex } of VARIANTS) {
      const label = name.replace(/[@+]/g, '-');
      const dir = join(ROOT, `${label}-${size}`);
      const marker = join(dir, 'ingested');
      const reuse = KEEP && existsSync(marker);
      if (!reuse) rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const env: Record<string, string> = {
        MEMD_DATA_DIR: dir,
        MEMD_EMBEDDING_PROVIDER: EMBEDDER,
        MEMD_RECALL_CACHE_ENTRIES: '0',
      };
      if (name.startsWith('postgres')) {
        const schema = `scale_${size}${root ? '_baseline' : ''}${vectorIndex ? `_${vectorIndex}` : ''}`;
        if (!reuse) await freshSchema(schema);
        if (vectorIndex) env.MEMD_DATABASE_VECTOR_INDEX = vectorIndex;
        Object.assign(env, {
          MEMD_STORAGE: 'postgres',
          MEMD_DATABASE_URL: PG_URL!,
          MEMD_DATABASE_SCHEMA: schema,
          MEMD_DATABASE_POOL_SIZE: POOL,
        });
      }
      const t = performance.now();
      const workers: BenchServer[] = [];
      if (name.startsWith('postgres') && PG_WORKERS > 0) {
        for (let n = 0; n < PG_WORKERS; n++)
          workers.push(await startBenchServer({ ...env, MEMD_DATA_DIR: join(dir, `worker-${n}`) }, root));
        env.MEMD_TASK_CONCURRENCY = '0';
      }
      const backend: Backend = { name, env, root, server: await startBenchServer(env, root), workers };
      await waitReady(backend.server!.url);
      log(
        `  ${name}: ready in ${((performance.now() - t) / 1000).toFixed(1)} s${reuse ? ' (reusing the earlier ingest)' : ''}${workers.length > 0 ? `; an API-only node beside ${workers.length} worker node(s)` : ''}`,
      );
      backends.push(backend);
      if (!reuse) fresh.push(backend);
    }
    if (fresh.length > 0) {
      await ingest(fresh, corpus);
      for (const backend of fresh)
        writeFileSync(join(backend.env.MEMD_DATA_DIR!, 'ingested'), new Date().toISOString());
    }
    try {
      await questions(backends, corpus, 'right after the ingest');
      for (let pass = 2; pass <= PASSES; pass++) await questions(backends, corpus, `asked again (pass ${pass})`);
      if (DRAIN) {
        for (const backend of backends) await drain(backend);
        await questions(backends, corpus, 'after the backlog drained');
      }
      for (const backend of backends) await restart(backend);
    } finally {
      for (const backend of backends) {
        await backend.server?.stop();
        for (const worker of backend.workers) await worker.stop();
      }
    }
  }
} finally {
  await benchServer?.stop();
}
log(`\nload after: ${loadAverages()}`);
