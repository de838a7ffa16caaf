import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { isoNow, systemClock } from '../../src/core/clock.js';
import { CoreEvents } from '../../src/core/events.js';
import { openSqliteStorage } from '../../src/storage/sqlite/open.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import type { Task } from '../../src/storage/types.js';
import { TaskRunner } from '../../src/tasks/runner.js';
import { silentLogger } from '../support/silent-logger.js';

/** Far longer than the test waits: a stop that sleeps out one poll interval cannot pass. */
const POLL_INTERVAL_MS = 120_000;

let dir: string;
let storage: SqlStorage;
let events: CoreEvents;
/** A fresh queue holding one task of kind `test.single`. */
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'memd-runner-stop-'));
  storage = await openSqliteStorage({ path: join(dir, 'tasks.sqlite'), dimensions: 8 });
  events = new CoreEvents(storage.workspaces);
  await storage.tasks.enqueue([
    { kind: 'test.single', workspaceId: null, payload: { n: 1 }, runAt: isoNow(systemClock) },
  ]);
});
afterEach(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One task at a time, no waiting for gaps, a poll interval no test waits out. */
const runnerOf = (maxAttempts: number, handler: (task: Task) => Promise<void>): TaskRunner => {
  const options = {
    concurrency: 1,
    batchSize: 1,
    foregroundWaitMs: 0,
    pollIntervalMs: POLL_INTERVAL_MS,
    leaseMs: 60_000,
    maxAttempts,
  };
  const runner = new TaskRunner(storage, systemClock, events, options, silentLogger);
  runner.register('test.single', handler);
  return runner;
};

it('a stop that comes while the runner claims work returns at once, and hands the claimed task back', async () => {
  const ran: number[] = [];
  const runner = runnerOf(1, async (task) => void ran.push(task.payload.n as number));

  runner.start(); // its first claim is now in flight
  const outcome = await Promise.race([
    runner.stop().then(() => 'stopped'),
    // Unreferenced: once the stop has won, this timer keeps no process alive.
    sleep(10_000, 'still stopping after 10 s', { ref: false }),
  ]);
  expect(outcome).toBe('stopped');
  expect(ran).toEqual([]);
  expect(await storage.tasks.counts(isoNow(systemClock))).toMatchObject({ pending: 1, running: 0 });
});

it('a task handed back unstarted keeps its attempts: a stop does not bring it closer to being given up', async () => {
  for (let stop = 0; stop < 3; stop++) {
    const started: number[] = [];
    const stopping = runnerOf(2, async (task) => void started.push(task.id));
    stopping.start();
    await stopping.stop();
    expect(started).toEqual([]);
  }

  const failing = runnerOf(2, async () => {
    throw new Error('a first failure');
  });
  await failing.drain();
  // One failure of two allowed: the task waits for its retry, not given up.
  expect(await storage.tasks.counts(isoNow(systemClock))).toMatchObject({ failed: 0, scheduled: 1 });
});
