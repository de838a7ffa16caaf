import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isoNow, systemClock } from '../../src/core/clock.js';
import { CoreEvents } from '../../src/core/events.js';
import { openSqliteStorage } from '../../src/storage/sqlite/open.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import { ForegroundActivity } from '../../src/tasks/foreground.js';
import { TaskRunner } from '../../src/tasks/runner.js';
import { silentLogger } from '../support/silent-logger.js';

const OPTIONS = {
  concurrency: 2,
  batchSize: 4,
  foregroundWaitMs: 0,
  pollIntervalMs: 20,
  leaseMs: 60_000,
  maxAttempts: 1,
};

describe('a task runner with a batching kind', () => {
  let dir: string;
  let storage: SqlStorage;
  let runner: TaskRunner;
  /** The tasks each call of the batch handler got, by their payload's `n`. */
  let calls: number[][];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'memd-batches-'));
    storage = await openSqliteStorage({ path: join(dir, 'tasks.sqlite'), dimensions: 8 });
    calls = [];
    runner = new TaskRunner(storage, systemClock, new CoreEvents(storage.workspaces), OPTIONS, silentLogger);
    runner.registerBatch('test.batch', async (tasks) => {
      const ns = tasks.map((t) => t.payload.n as number);
      calls.push(ns);
      if (ns.includes(13)) throw new Error('thirteen');
    });
    runner.register('test.single', async () => undefined);
  });
  afterEach(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const enqueue = (kind: string, ns: number[]) =>
    storage.tasks.enqueue(ns.map((n) => ({ kind, workspaceId: null, payload: { n }, runAt: isoNow(systemClock) })));

  it('runs the tasks of that kind in batches of at most batchSize, and other kinds one by one', async () => {
    await enqueue('test.batch', [1, 2, 3]);
    await enqueue('test.single', [100, 101]);
    await enqueue('test.batch', [4, 5, 6, 7, 8, 9]);
    expect(await runner.drain()).toBe(11);
    expect(calls).toEqual([[1, 2, 3, 4], [5, 6, 7, 8], [9]]);
    expect(await storage.tasks.counts(isoNow(systemClock))).toEqual({
      pending: 0,
      scheduled: 0,
      running: 0,
      failed: 0,
    });
  });

  it('runs a failed batch again task by task, so that only the bad task fails', async () => {
    await enqueue('test.batch', [11, 12, 13, 14]);
    expect(await runner.drain()).toBe(4);
    expect(calls).toEqual([[11, 12, 13, 14], [11], [12], [13], [14]]);
    const failed = await storage.tasks.list({ status: 'failed', limit: 10 });
    expect(failed.map((t) => [t.payload.n, t.lastError])).toEqual([[13, 'thirteen']]);
    expect((await storage.tasks.counts(isoNow(systemClock))).pending).toBe(0);
  });

  describe('started beside client requests', () => {
    const served = async (foreground: ForegroundActivity, ns: number[]) => {
      const gapRunner = new TaskRunner(
        storage,
        systemClock,
        new CoreEvents(storage.workspaces),
        { ...OPTIONS, concurrency: 1, foregroundWaitMs: 60_000 },
        silentLogger,
        foreground,
      );
      const seen: number[][] = [];
      gapRunner.registerBatch('test.batch', async (tasks) => {
        seen.push(tasks.map((t) => t.payload.n as number));
      });
      await enqueue('test.batch', ns);
      gapRunner.start();
      while (seen.flat().length < ns.length) await new Promise((r) => setTimeout(r, 10));
      await gapRunner.stop();
      return seen;
    };

    it('runs one task at a time in the gaps between calls, so that the next call waits for one task only', async () => {
      const foreground = new ForegroundActivity();
      foreground.begin();
      foreground.end();
      expect(await served(foreground, [1, 2, 3])).toEqual([[1], [2], [3]]);
    });

    it('runs batches when no client has called for the whole wait', async () => {
      expect(await served(new ForegroundActivity(), [1, 2, 3, 4, 5])).toEqual([[1, 2, 3, 4], [5]]);
    });
  });

  describe('giving way between steps', () => {
    /** Runs one batch whose handler gives way once; answers the order of what happened, `request` events included. */
    const stepped = async (
      foregroundWaitMs: number,
      request: (foreground: ForegroundActivity, events: string[]) => void,
    ) => {
      const foreground = new ForegroundActivity();
      const stepRunner = new TaskRunner(
        storage,
        systemClock,
        new CoreEvents(storage.workspaces),
        { ...OPTIONS, concurrency: 1, foregroundWaitMs },
        silentLogger,
        foreground,
      );
      const events: string[] = [];
      let done!: () => void;
      const finished = new Promise<void>((resolve) => {
        done = resolve;
      });
      stepRunner.registerBatch('test.batch', async (_tasks, giveWay) => {
        events.push('first step');
        request(foreground, events);
        const started = performance.now();
        await giveWay();
        events.push(`second step after ${Math.round(performance.now() - started) >= 40 ? '40 ms or more' : 'less'}`);
        done();
      });
      await enqueue('test.batch', [1]);
      stepRunner.start();
      await finished;
      await stepRunner.stop();
      return { events, foreground };
    };

    it('waits while a client request is in flight, and goes on when it ends', async () => {
      const { events } = await stepped(1_000, (foreground, log) => {
        foreground.begin();
        setTimeout(() => {
          log.push('request ended');
          foreground.end();
        }, 20);
      });
      expect(events).toEqual(['first step', 'request ended', 'second step after less']);
    });

    it('waits a bounded time under requests that never leave a gap', async () => {
      const { events, foreground } = await stepped(1_000, (f) => f.begin());
      expect(events).toEqual(['first step', 'second step after 40 ms or more']);
      foreground.end();
    });

    it('does not wait when the foreground wait is 0', async () => {
      const { events, foreground } = await stepped(0, (f) => f.begin());
      expect(events).toEqual(['first step', 'second step after less']);
      foreground.end();
    });
  });
});
