import { describe, expect, it } from 'vitest';
import { QueueReadings } from '../../src/core/queue-reading.js';
import type { TaskSummary } from '../../src/storage/types.js';
import { ManualClock } from '../support/server.js';

/**
 * A queue of `size` tasks whose every count takes `costMs` of the monotonic timer; it reports how many times it was
 * counted (as its pending count).
 */
function queue(costMs: number, size = 100_000, clock = new ManualClock()) {
  let elapsed = 0;
  let reads = 0;
  let fail = false;
  const readings = new QueueReadings(
    async () => {
      reads++;
      await Promise.resolve();
      elapsed += costMs;
      if (fail) throw new Error('database unreachable');
      const summary: TaskSummary = {
        counts: { pending: reads, scheduled: size, running: 0, failed: 0 },
        backlog: [],
      };
      return summary;
    },
    clock,
    () => elapsed,
  );
  return {
    readings,
    clock,
    reads: () => reads,
    wait: (ms: number) => {
      elapsed += ms;
    },
    failing: () => {
      fail = true;
    },
  };
}

describe('QueueReadings', () => {
  it('reads a small queue fresh at every ask, however long reading it took', async () => {
    const q = queue(500, 49_000);
    expect((await q.readings.read()).summary.counts.pending).toBe(1);
    expect((await q.readings.read()).summary.counts.pending).toBe(2);
    expect(q.reads()).toBe(2);
  });

  it('reuses an expensive reading for twenty times what it cost, then reads again', async () => {
    const q = queue(200);
    await q.readings.read();
    q.wait(3_000);
    expect((await q.readings.read()).summary.counts.pending).toBe(1);
    q.wait(1_000);
    expect((await q.readings.read()).summary.counts.pending).toBe(2);
    expect(q.reads()).toBe(2);
  });

  it('never reuses a reading older than ten seconds, however long it took', async () => {
    const q = queue(5_000);
    await q.readings.read();
    q.wait(9_000);
    await q.readings.read();
    expect(q.reads()).toBe(1);
    q.wait(1_000);
    await q.readings.read();
    expect(q.reads()).toBe(2);
  });

  it('reads again when the server clock has moved past the reuse window', async () => {
    const q = queue(200);
    await q.readings.read();
    q.clock.advance(90_000);
    const reading = await q.readings.read();
    expect(q.reads()).toBe(2);
    expect(reading.at.getTime()).toBe(q.clock.now().getTime());
  });

  it('shares one read between asks that arrive while it runs', async () => {
    const q = queue(1);
    const answers = await Promise.all([q.readings.read(), q.readings.read(), q.readings.read()]);
    expect(q.reads()).toBe(1);
    expect(answers.map((a) => a.summary.counts.pending)).toEqual([1, 1, 1]);
  });

  it('keeps no failed read: the next ask reads again', async () => {
    const q = queue(200);
    q.failing();
    await expect(q.readings.read()).rejects.toThrow('database unreachable');
    await expect(q.readings.read()).rejects.toThrow('database unreachable');
    expect(q.reads()).toBe(2);
  });
});
