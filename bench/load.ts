/**
 * npm run bench:load -- [--configs sqlite:1,postgres:1,postgres:2] [--seed 5000] [--duration 10]
 *   [--connections 1,2,4,8,16,32,64] [--p99-limit-ms 100] [--embedder hash|local]
 *
 * Mixed traffic from an HTTP load generator (autocannon, loopback only) against one memd node, or several nodes on
 * one PostgreSQL database, at rising concurrency until the p99 latency passes the limit; the knee is the highest
 * throughput whose p99 stayed within it. Each connection repeats: recall, write a memory, recall, set a working-memory
 * entry of a session, recall, read the session's working memory (half recalls, a sixth writes, a third session calls).
 * Several nodes: each gets an equal share of the connections (a balancer without affinity would do the same); the
 * reported p99 is the worst node's, the throughput their sum.
 *
 * The hash embedder by default, so that the figures are memd's and the database's rather than the embedding
 * model's (`--embedder local` measures the model too: every write and recall embeds its text). The recall cache is
 * off, so that every recall searches.
 *
 * PostgreSQL is a real server (bench/postgres.ts: a throwaway durable cluster, or MEMD_BENCH_DATABASE_URL). The
 * load generator runs on the same machine as the nodes and the database, so all of them share its cores: the
 * figures are those of one box, not of a deployment.
 */
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { seededRandom } from '../src/core/random.js';
import { machineLine, peakRssMiB } from './machine.js';
import { benchPostgres, type BenchPostgres } from './postgres.js';
import { syntheticSentences } from './sentences.js';
import { startBenchServer, waitReady, type BenchServer } from './server-process.js';

const { values } = parseArgs({
  options: {
    configs: { type: 'string', default: 'sqlite:1,postgres:1,postgres:2' },
    seed: { type: 'string', default: '5000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '1,2,4,8,16,32,64' },
    'p99-limit-ms': { type: 'string', default: '100' },
    embedder: { type: 'string', default: 'hash' },
  },
});
const SEED = Number(values.seed);
const DURATION = Number(values.duration);
const LEVELS = values.connections.split(',').map(Number);
const P99_LIMIT = Number(values['p99-limit-ms']);
const WORKSPACE = 'load';
const SESSIONS = 64;
// Same for every node of a deployment: sessions' secrets and sandboxes need one key across nodes.
const SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

const log = (line: string) => console.log(line);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function post(url: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return res.json();
}

/** The workspace's memories and sessions, written through the first node before any load. */
async function seed(url: string): Promise<string[]> {
  await post(url, '/v1/workspaces', { id: WORKSPACE, name: 'load' });
  const texts = syntheticSentences(SEED, 11);
  for (let i = 0; i < texts.length; i += 100) {
    await post(url, '/v1/memories/batch', {
      workspace_id: WORKSPACE,
      operations: texts.slice(i, i + 100).map((content) => ({ op: 'create', content })),
    });
  }
  const sessions: string[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const { session } = await post(url, '/v1/sessions', { workspace_id: WORKSPACE, ttl_seconds: 86_400 });
    sessions.push(session.id as string);
  }
  return sessions;
}

/** One connection's repeating sequence, with fresh text for each request from a seeded generator. */
function traffic(sessions: string[], nodeIndex: number): autocannon.Request[] {
  const random = seededRandom(1000 + nodeIndex);
  const questions = syntheticSentences(2_000, 23).map((s) => s.replace(/ \(#\d+\)$/, ''));
  const writes = syntheticSentences(50_000, 31 + nodeIndex);
  let written = 0;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const json = { 'content-type': 'application/json' };
  const recall: autocannon.Request = {
    method: 'POST',
    path: '/v1/memories/recall',
    headers: json,
    setupRequest: (request) => ({
      ...request,
      body: JSON.stringify({ workspace_id: WORKSPACE, query: pick(questions), limit: 10 }),
    }),
  };
  const write: autocannon.Request = {
    method: 'POST',
    path: '/v1/memories',
    headers: json,
    setupRequest: (request) => ({
      ...request,
      body: JSON.stringify({
        workspace_id: WORKSPACE,
        content: `${writes[written++ % writes.length]} [n${nodeIndex}-${written}]`,
      }),
    }),
  };
  const setEntry: autocannon.Request = {
    method: 'POST',
    headers: json,
    setupRequest: (request) => ({
      ...request,
      path: `/v1/sessions/${pick(sessions)}/memory`,
      body: JSON.stringify({ key: `k${Math.floor(random() * 20)}`, value: { note: pick(questions) } }),
    }),
  };
  const getEntries: autocannon.Request = {
    method: 'GET',
    setupRequest: (request) => ({ ...request, path: `/v1/sessions/${pick(sessions)}/memory` }),
  };
  const sequence = [recall, write, recall, setEntry, recall, getEntries];
  // LOAD_DEBUG=1 prints the first refusal of each kind, to see why a level had non-2xx answers.
  if (process.env.LOAD_DEBUG) {
    const seen = new Set<string>();
    for (const request of sequence) {
      request.onResponse = (status, body) => {
        const kind = `${request.path ?? 'session'} ${status}`;
        if (status >= 300 && !seen.has(kind)) {
          seen.add(kind);
          console.error(kind, body.slice(0, 300));
        }
      };
    }
  }
  return sequence;
}

interface Level {
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Status codes other than 2xx, with their counts. */
  refusals: string;
}

async function runLevel(nodes: BenchServer[], connections: number, sessions: string[]): Promise<Level> {
  const share = Math.max(1, Math.round(connections / nodes.length));
  const results = await Promise.all(
    nodes.map((node, i) =>
      autocannon({ url: node.url, connections: share, duration: DURATION, requests: traffic(sessions, i) }),
    ),
  );
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  return {
    connections: share * nodes.length,
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    // The median of the whole is near the request-weighted mean of the nodes' medians; the p99 is the worst node's.
    p50: results.reduce((sum, r) => sum + r.latency.p50 * r.requests.total, 0) / Math.max(1, total),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    refusals: results
      .flatMap((r) => Object.entries(r.statusCodeStats as unknown as Record<string, { count: number | string }>))
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, { count }]) => `${code}×${count}`)
      .join(' '),
  };
}

async function runConfig(backend: string, nodeCount: number): Promise<void> {
  log(`\n== ${backend}, ${nodeCount} node${nodeCount > 1 ? 's' : ''} (load before: ${load()})`);
  if (backend === 'sqlite' && nodeCount > 1)
    throw new Error('SQLite is one process per data directory: several nodes need postgres');
  const dirs: string[] = [];
  const nodes: BenchServer[] = [];
  let pg: BenchPostgres | null = null;
  try {
    const env: Record<string, string> = {
      MEMD_EMBEDDING_PROVIDER: values.embedder,
      MEMD_RECALL_CACHE_ENTRIES: '0',
      MEMD_SECRET_KEY: SECRET_KEY,
      MEMD_RATE_LIMIT_PER_MINUTE: '0',
    };
    if (backend === 'postgres') {
      pg = await benchPostgres();
      log(`PostgreSQL: ${pg.describe}`);
      Object.assign(env, {
        MEMD_STORAGE: 'postgres',
        MEMD_DATABASE_URL: pg.url,
        MEMD_DATABASE_SCHEMA: `load_${Date.now()}`,
      });
    }
    for (let i = 0; i < nodeCount; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'memd-bench-load-'));
      dirs.push(dir);
      const node = await startBenchServer({ ...env, MEMD_DATA_DIR: dir });
      nodes.push(node);
      await waitReady(node.url);
    }
    const started = performance.now();
    const sessions = await seed(nodes[0]!.url);
    log(
      `seeded ${SEED} memories and ${SESSIONS} sessions in ${((performance.now() - started) / 1000).toFixed(1)} s; ${DURATION} s a level`,
    );
    log('| connections | requests/s | p50 ms | p99 ms | errors | non-2xx | load |');
    log('|---|---|---|---|---|---|---|');
    let knee: Level | null = null;
    for (const connections of LEVELS) {
      const level = await runLevel(nodes, connections, sessions);
      log(
        `| ${level.connections} | ${level.rps.toFixed(0)} | ${level.p50.toFixed(1)} | ${level.p99.toFixed(1)} | ${level.errors} | ${level.non2xx}${level.refusals ? ` (${level.refusals})` : ''} | ${load()} |`,
      );
      const clean = level.errors === 0 && level.non2xx === 0;
      if (level.p99 > P99_LIMIT || !clean) break;
      if (!knee || level.rps > knee.rps) knee = level;
    }
    log(
      knee
        ? `knee: ${knee.rps.toFixed(0)} requests/s at ${knee.connections} connections (p99 ${knee.p99.toFixed(1)} ms ≤ ${P99_LIMIT} ms, no errors)`
        : `knee: none (p99 above ${P99_LIMIT} ms, or errors, from the first level)`,
    );
    const rss = await Promise.all(nodes.map((n) => peakRssMiB(n.pid)));
    log(`node peak RSS: ${rss.map((r) => `${r.toFixed(0)} MiB`).join(', ')}`);
  } finally {
    for (const node of nodes) await node.stop();
    await pg?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

log(`machine: ${machineLine()}`);
log(
  `bench:load, ${values.embedder} embedder, ${SEED} memories, p99 limit ${P99_LIMIT} ms, levels ${LEVELS.join(', ')} connections`,
);
for (const config of values.configs.split(',')) {
  const [backend, count] = config.split(':');
  await runConfig(backend!, Number(count ?? 1));
}
log(`\nload after: ${load()}`);
