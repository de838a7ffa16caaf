/**
 * Sandbox figures: first-execute latency of a new session (with the pre-warmed spare, and cold),
 * execute round trip of a trivial statement, restore of an evicted session, and process RSS with
 * 1, 4 and 8 live sandboxes. Run with `npm run bench:sandbox`.
 */
import type { SandboxConfig } from '../src/config.js';
import { InMemoryCheckpointStore, SandboxManager } from '../src/sandbox/index.js';

const config: SandboxConfig = { maxLive: 8, executionTimeoutMs: 30_000, memoryLimitBytes: 268_435_456, idleEvictMs: 600_000, maxOutputChars: 50_000, spare: 'start', checkpointDelayMs: 0 };
const host = { llmQuery: async (prompt: string) => prompt, recall: async () => [] };
const MiB = 1024 * 1024;
let sessionCounter = 0;
const newSession = (): string => `bench-${++sessionCounter}`;

function manager(prewarm: boolean, store = new InMemoryCheckpointStore()): SandboxManager {
  return new SandboxManager({ config: { ...config, spare: prewarm ? 'start' : 'off' }, store, hostFor: () => host });
}

async function timed(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
const summary = (samples: number[]): string => `median ${ms(percentile(samples, 0.5))}, min ${ms(Math.min(...samples))}, max ${ms(Math.max(...samples))} (n=${samples.length})`;

async function firstExecuteWithSpare(runs: number): Promise<number[]> {
  const sandboxes = manager(true);
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    await sandboxes.warmUp(); // the spare is loaded, as it is for a session that arrives after a quiet moment
    samples.push(await timed(() => sandboxes.execute(newSession(), { code: 'x = 1' })));
    await sandboxes.cleanup(`bench-${sessionCounter}`);
  }
  await sandboxes.close();
  return samples;
}

async function firstExecuteCold(runs: number): Promise<number[]> {
  const sandboxes = manager(false);
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    samples.push(await timed(() => sandboxes.execute(newSession(), { code: 'x = 1' })));
    await sandboxes.cleanup(`bench-${sessionCounter}`);
  }
  await sandboxes.close();
  return samples;
}

async function roundTrips(count: number): Promise<number[]> {
  const sandboxes = manager(false);
  const session = newSession();
  await sandboxes.execute(session, { code: 'x = 0' });
  for (let warm = 0; warm < 50; warm++) await sandboxes.execute(session, { code: 'x = x + 1' });
  const samples: number[] = [];
  for (let run = 0; run < count; run++) samples.push(await timed(() => sandboxes.execute(session, { code: 'x = x + 1' })));
  await sandboxes.close();
  return samples;
}

/** A session's first call after a restart (or an eviction): a spare worker plus unpickling its checkpoint. */
async function restoreAfterRestart(runs: number): Promise<number[]> {
  const store = new InMemoryCheckpointStore();
  const session = newSession();
  const first = manager(false, store);
  await first.execute(session, { code: "rows = [{'id': i, 'text': 'row %d' % i} for i in range(10_000)]" });
  await first.close(); // checkpoints the live session
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const restarted = manager(true, store);
    await restarted.warmUp();
    samples.push(await timed(() => restarted.execute(session, { code: 'len(rows)' })));
    await restarted.close();
  }
  return samples;
}

async function rssPerLiveSandbox(levels: number[]): Promise<string[]> {
  const lines: string[] = [];
  const baseline = process.memoryUsage().rss;
  lines.push(`baseline (no sandbox): ${(baseline / MiB).toFixed(0)} MiB`);
  const sandboxes = manager(false);
  const sessions: string[] = [];
  for (const level of levels) {
    while (sessions.length < level) {
      const session = newSession();
      sessions.push(session);
      // A little state in each, as a session would have: 1,000 short strings.
      await sandboxes.execute(session, { code: "notes = ['note %d' % i for i in range(1_000)]" });
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const rss = process.memoryUsage().rss;
    lines.push(`${level} live: RSS ${(rss / MiB).toFixed(0)} MiB, ${((rss - baseline) / MiB / level).toFixed(0)} MiB per sandbox above baseline`);
  }
  await sandboxes.close();
  return lines;
}

// Memory first, while the process has held no sandbox yet.
const rss = await rssPerLiveSandbox([1, 4, 8]);
const spare = await firstExecuteWithSpare(5);
const cold = await firstExecuteCold(3);
const trips = await roundTrips(500);
const restore = await restoreAfterRestart(3);

console.log(`memd sandbox benchmark (node ${process.version}, Pyodide ${(await import('pyodide')).version})`);
console.log(`first execute of a new session, pre-warmed spare: ${summary(spare)}`);
console.log(`first execute of a new session, cold start:       ${summary(cold)}`);
console.log(`execute round trip (x = x + 1): p50 ${ms(percentile(trips, 0.5))}, p95 ${ms(percentile(trips, 0.95))}, p99 ${ms(percentile(trips, 0.99))} (n=${trips.length})`);
console.log(`first execute after a restart, restoring a checkpoint of 10,000 dicts: ${summary(restore)}`);
for (const line of rss) console.log(`RSS: ${line}`);
