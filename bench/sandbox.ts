/**
 * npm run bench:sandbox -- [--spare-runs 10] [--cold-runs 3] [--round-trips 500]
 *
 * The context environment through HTTP, against the built server in its own process:
 * - first execute of a new session, with the spare interpreter loaded (MEMD_SANDBOX_SPARE=start) and cold (off);
 * - execute round trip of a trivial statement on a live sandbox, p50/p95/p99;
 * - first execute after a restart, restoring a checkpoint of 10,000 dicts from the database;
 * - server RSS with 1, 4 and 8 live sandboxes (no spare), and what one sandbox adds.
 * Between samples the bench waits until the server's CPU is quiet, so a spare still loading is not
 * counted against the next session.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { machineLine, percentile } from './machine.js';
import { startBenchServer, waitReady, type BenchServer } from './server-process.js';

const { values } = parseArgs({
  options: {
    'spare-runs': { type: 'string', default: '10' },
    'cold-runs': { type: 'string', default: '3' },
    'round-trips': { type: 'string', default: '500' },
  },
});

const MiB = 1024 * 1024;
const ms = (value: number): string => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');

async function call(url: string, method: string, path: string, body?: unknown, sessionId?: string): Promise<any> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (sessionId) headers['x-session-id'] = sessionId;
  const res = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

const newSession = async (url: string): Promise<string> =>
  (await call(url, 'POST', '/v1/sessions', { workspace_id: 'bench', ttl_seconds: 86_400 })).session.id;

async function execute(url: string, sessionId: string, code: string): Promise<number> {
  const started = performance.now();
  const run = await call(url, 'POST', '/v1/context/execute', { code }, sessionId);
  const elapsed = performance.now() - started;
  if (run.error) throw new Error(`execute failed: ${run.error}`);
  return elapsed;
}

function procStatus(pid: number, field: 'VmRSS'): number {
  const kb = Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`))?.[1]);
  return kb * 1024;
}

/** CPU time of the process (all threads), in clock ticks. */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Waits until the server uses under 5% of a core for a whole second (a spare interpreter has loaded). */
async function quiet(pid: number): Promise<void> {
  let calm = 0;
  while (calm < 4) {
    const before = cpuTicks(pid);
    await new Promise((resolve) => setTimeout(resolve, 250));
    calm = cpuTicks(pid) - before <= 1 ? calm + 1 : 0;
  }
}

/** The built server on a data directory (a fresh one, removed afterwards, unless given). */
async function withServer<T>(
  env: Record<string, string>,
  body: (server: BenchServer) => Promise<T>,
  dataDir?: string,
): Promise<T> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'memd-bench-sandbox-'));
  // The server announces its URL in an info line.
  const server = await startBenchServer({ MEMD_DATA_DIR: dir, MEMD_EMBEDDING_PROVIDER: 'hash', ...env });
  try {
    await waitReady(server.url);
    return await body(server);
  } finally {
    await server.stop();
    if (!dataDir) rmSync(dir, { recursive: true, force: true });
  }
}

/** New sessions one after another; each sandbox is cleaned up afterwards so none is evicted on the next one's path. */
async function firstExecutes(spare: 'start' | 'off', runs: number): Promise<number[]> {
  return withServer({ MEMD_SANDBOX_SPARE: spare }, async ({ url, pid }) => {
    const samples: number[] = [];
    for (let run = 0; run < runs; run++) {
      await quiet(pid);
      const sessionId = await newSession(url);
      samples.push(await execute(url, sessionId, 'x = 1'));
      await call(url, 'DELETE', '/v1/context/cleanup', undefined, sessionId);
    }
    return samples;
  });
}

async function roundTrips(count: number): Promise<number[]> {
  return withServer({ MEMD_SANDBOX_SPARE: 'off' }, async ({ url }) => {
    const sessionId = await newSession(url);
    await execute(url, sessionId, 'x = 0');
    for (let warm = 0; warm < 50; warm++) await execute(url, sessionId, 'x = x + 1');
    const samples: number[] = [];
    for (let run = 0; run < count; run++) samples.push(await execute(url, sessionId, 'x = x + 1'));
    return samples;
  });
}

/** A session's first call on a restarted server: a spare interpreter plus reading and unpickling its checkpoint. */
async function restoreAfterRestart(): Promise<{ bytes: number; elapsed: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'memd-bench-sandbox-'));
  try {
    const sessionId = await withServer(
      { MEMD_SANDBOX_SPARE: 'off' },
      async ({ url }) => {
        const id = await newSession(url);
        await execute(url, id, "rows = [{'id': i, 'text': 'row %d' % i} for i in range(10_000)]");
        await call(url, 'POST', '/v1/context/checkpoint', undefined, id);
        return id;
      },
      dataDir,
    );
    return await withServer(
      { MEMD_SANDBOX_SPARE: 'start' },
      async ({ url, pid }) => {
        await quiet(pid);
        const elapsed = await execute(url, sessionId, 'len(rows)');
        const { total_size_bytes: bytes } = await call(url, 'GET', '/v1/context/status', undefined, sessionId);
        return { bytes, elapsed };
      },
      dataDir,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function rssPerLiveSandbox(levels: number[]): Promise<string[]> {
  return withServer(
    { MEMD_SANDBOX_SPARE: 'off', MEMD_SANDBOX_MAX_LIVE: String(Math.max(...levels)) },
    async ({ url, pid }) => {
      await quiet(pid);
      const baseline = procStatus(pid, 'VmRSS');
      const lines = [`server without a sandbox: ${(baseline / MiB).toFixed(0)} MiB`];
      let live = 0;
      for (const level of levels) {
        for (; live < level; live++) {
          // A little state in each, as a session would have: 1,000 short strings.
          await execute(url, await newSession(url), "notes = ['note %d' % i for i in range(1_000)]");
        }
        await quiet(pid);
        const rss = procStatus(pid, 'VmRSS');
        lines.push(
          `${level} live: ${(rss / MiB).toFixed(0)} MiB, ${((rss - baseline) / MiB / level).toFixed(0)} MiB per sandbox`,
        );
      }
      return lines;
    },
  );
}

const summary = (samples: number[]): string => {
  const sorted = [...samples].sort((a, b) => a - b);
  return `median ${ms(percentile(sorted, 50))}, min ${ms(sorted[0]!)}, max ${ms(sorted.at(-1)!)} (n=${sorted.length})`;
};

console.log(`bench:sandbox — ${machineLine()}, Pyodide ${(await import('pyodide')).version}`);
console.log(`load average at start (1/5/15 min): ${load()}`);
const rss = await rssPerLiveSandbox([1, 4, 8]);
const withSpare = await firstExecutes('start', Number(values['spare-runs']));
const cold = await firstExecutes('off', Number(values['cold-runs']));
const trips = (await roundTrips(Number(values['round-trips']))).sort((a, b) => a - b);
const restore = await restoreAfterRestart();

console.log(`first execute of a new session, spare loaded:  ${summary(withSpare)}`);
console.log(`first execute of a new session, cold start:    ${summary(cold)}`);
console.log(
  `execute round trip (x = x + 1) over HTTP: p50 ${ms(percentile(trips, 50))}, p95 ${ms(percentile(trips, 95))}, p99 ${ms(percentile(trips, 99))} (n=${trips.length})`,
);
console.log(
  `first execute after a restart, restoring a checkpoint of 10,000 dicts (${(restore.bytes / MiB).toFixed(1)} MiB in Python): ${ms(restore.elapsed)}`,
);
for (const line of rss) console.log(`RSS: ${line}`);
console.log(`load average at end (1/5/15 min): ${load()}`);
