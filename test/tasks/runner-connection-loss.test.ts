import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock, isoNow } from '../../src/core/clock.js';
import { CoreEvents } from '../../src/core/events.js';
import type { Logger } from '../../src/core/logger.js';
import { openPostgresStorage } from '../../src/storage/postgres/open.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import { TaskRunner } from '../../src/tasks/runner.js';
import { freshSchema } from '../support/postgres.js';
import { postgresBinDir, startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster.js';

/** Longer than the test: no lease runs out, so only the runner itself can finish what it leased. */
const LEASE_MS = 3_600_000;
const OPTIONS = { concurrency: 1, pollIntervalMs: 20, leaseMs: LEASE_MS, maxAttempts: 5 };

/**
 * The database goes away just after a task's work is done and before the runner records it. The runner holds the
 * task's lease and renews it, so it alone can record the task once the database is back: a completion it forgot
 * would leave the task `running` for as long as the process lives, never finished and never run again.
 */
describe.skipIf(!postgresBinDir())('a task runner whose database restarts between a task and its completion', () => {
  let cluster: PostgresCluster;
  let storage: SqlStorage;
  let runs: number;
  let halted: boolean;
  let runner: TaskRunner;
  /** What the runner reported as errors: a completion it could not record is one. */
  let errors: string[];

  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  beforeEach(async () => {
    storage = await openPostgresStorage({ url: cluster.url, poolSize: 2, dimensions: 8, schema: freshSchema() });
    runs = 0;
    halted = false;
    errors = [];
    const log: Logger = { info: () => undefined, warn: () => undefined, error: (_details, message) => errors.push(message ?? '') };
    runner = new TaskRunner(storage, systemClock, new CoreEvents(storage.workspaces), OPTIONS, log);
    // The work succeeds the first time; the database stops before the runner can record that.
    runner.register('test.halt-after', async () => {
      runs += 1;
      if (runs === 1) {
        await cluster.halt();
        halted = true;
      }
    });
    await storage.tasks.enqueue([{ kind: 'test.halt-after', workspaceId: null, payload: {}, runAt: isoNow(systemClock) }]);
  });

  afterEach(async () => {
    await storage.close();
  });

  const counts = () => storage.tasks.counts(isoNow(systemClock));

  it('records it on the next drain, without running it again', async () => {
    await expect(runner.drain()).rejects.toMatchObject({ code: 'storage_unavailable' });
    await cluster.start();
    expect(await runner.drain()).toBe(0);
    expect(await counts()).toEqual({ pending: 0, scheduled: 0, running: 0, failed: 0 });
    expect(runs).toBe(1);
  });

  it('records it from its loop once the database is back, without running it again', async () => {
    runner.start();
    try {
      while (!halted) await sleep(10);
      // The runner tried to record the finished task while the database was down.
      while (errors.length === 0) await sleep(10);
      await cluster.start();
      let now = await counts().catch(() => null);
      // Bounded by the poll only: with the completion forgotten the task stays `running` past any wait.
      for (let i = 0; i < 1_500 && (now === null || now.running > 0); i++) {
        await sleep(20);
        now = await counts().catch(() => null);
      }
      expect(now).toEqual({ pending: 0, scheduled: 0, running: 0, failed: 0 });
      expect(runs).toBe(1);
    } finally {
      await runner.stop();
    }
  });
});
