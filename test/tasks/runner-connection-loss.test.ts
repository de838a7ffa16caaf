import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addMs, isoNow, systemClock, type Clock } from '../../src/core/clock.js';
import { CoreEvents } from '../../src/core/events.js';
import type { Logger } from '../../src/core/logger.js';
import { openPostgresStorage } from '../../src/storage/postgres/open.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import { TaskRunner, type TaskHandler } from '../../src/tasks/runner.js';
import { freshSchema } from '../support/postgres.js';
import { postgresBinDir, startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster.js';

/** Longer than the test: no lease runs out, so only the runner itself can finish what it leased. */
const LEASE_MS = 3_600_000;
const OPTIONS = {
  concurrency: 1,
  batchSize: 1,
  foregroundWaitMs: 1_000,
  pollIntervalMs: 20,
  leaseMs: LEASE_MS,
  maxAttempts: 5,
};
const KIND = 'test.task';
const NOTHING_QUEUED = { pending: 0, scheduled: 0, running: 0, failed: 0 };

/** A task runner over a real PostgreSQL server that the tests stop and start under it. */
describe.skipIf(!postgresBinDir())('a task runner whose database restarts', () => {
  let cluster: PostgresCluster;
  let storage: SqlStorage;
  /** What the runner reported as errors: a completion it could not record is one. */
  let errors: string[];

  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  beforeEach(async () => {
    errors = [];
    storage = await openPostgresStorage({ url: cluster.url, poolSize: 2, dimensions: 8, schema: freshSchema() });
  });
  afterEach(async () => {
    await storage.close();
  });

  const runnerWith = async (
    handler: TaskHandler,
    options: { clock?: Clock; maxAttempts?: number } = {},
  ): Promise<TaskRunner> => {
    const clock = options.clock ?? systemClock;
    const log: Logger = {
      info: () => undefined,
      warn: () => undefined,
      error: (_details, message) => errors.push(message ?? ''),
    };
    const runner = new TaskRunner(
      storage,
      clock,
      new CoreEvents(storage.workspaces),
      { ...OPTIONS, maxAttempts: options.maxAttempts ?? OPTIONS.maxAttempts },
      log,
    );
    runner.register(KIND, handler);
    await storage.tasks.enqueue([{ kind: KIND, workspaceId: null, payload: {}, runAt: isoNow(clock) }]);
    return runner;
  };
  const counts = (clock: Clock = systemClock) => storage.tasks.counts(isoNow(clock));

  /**
   * The database goes away just after a task's work is done and before the runner records it. The runner holds the
   * task's lease and renews it, so it alone can record the task once the database is back: a completion it forgot
   * would leave the task `running` for as long as the process lives, never finished and never run again.
   */
  describe('between a task and its completion', () => {
    let runs: number;
    let halted: boolean;
    /** The work succeeds the first time; the database stops before the runner can record that. */
    const haltAfterFirstRun: TaskHandler = async () => {
      runs += 1;
      if (runs === 1) {
        await cluster.halt();
        halted = true;
      }
    };
    beforeEach(() => {
      runs = 0;
      halted = false;
    });

    it('records it on the next drain, without running it again', async () => {
      const runner = await runnerWith(haltAfterFirstRun);
      await expect(runner.drain()).rejects.toMatchObject({ code: 'storage_unavailable' });
      await cluster.start();
      expect(await runner.drain()).toBe(0);
      expect(await counts()).toEqual(NOTHING_QUEUED);
      expect(runs).toBe(1);
    });

    it('records it from its loop once the database is back, without running it again', async () => {
      const runner = await runnerWith(haltAfterFirstRun);
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
        expect(now).toEqual(NOTHING_QUEUED);
        expect(runs).toBe(1);
      } finally {
        await runner.stop();
      }
    });
  });

  /**
   * The database goes away under a task's work and is back by the time the runner records the failure. That is no
   * fault of the task: it is retried shortly, however many attempts it has had, and never given up for it.
   */
  describe('under a task', () => {
    it('retries the task after the database is back, even on its last attempt', async () => {
      let now = new Date();
      const clock: Clock = { now: () => now };
      let runs = 0;
      const runner = await runnerWith(
        async () => {
          runs += 1;
          if (runs > 1) return;
          await cluster.halt();
          try {
            await storage.ping();
          } finally {
            await cluster.start();
          }
        },
        { clock, maxAttempts: 1 },
      );
      expect(await runner.drain()).toBe(1);
      expect(await counts(clock)).toEqual({ ...NOTHING_QUEUED, scheduled: 1 });
      now = new Date(addMs(now.toISOString(), 60_000));
      expect(await runner.drain()).toBe(1);
      expect(await counts(clock)).toEqual(NOTHING_QUEUED);
      expect(runs).toBe(2);
    });

    it('still gives up a task that fails for a reason of its own on its last attempt', async () => {
      const runner = await runnerWith(
        async () => {
          throw new Error('the work itself went wrong');
        },
        { maxAttempts: 1 },
      );
      expect(await runner.drain()).toBe(1);
      expect(await counts()).toEqual({ ...NOTHING_QUEUED, failed: 1 });
    });
  });
});
