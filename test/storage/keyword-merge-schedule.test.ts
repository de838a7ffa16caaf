import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeywordIndexMerges, type MergeSchedule } from '../../src/storage/sqlite/fts-merge.js';

const SCHEDULE: MergeSchedule = { quietMs: 1_000, minChanges: 100, intervalMs: 60_000, spacing: 2 };

/**
 * A schedule over a stand-in merge: `steps` steps of `stepMs` fake time each, stopping early when interrupted, and
 * resolving with the segments it leaves (1 when it finished).
 */
function scheduled({ steps = 0, stepMs = 100 } = {}) {
  let runs = 0;
  let finished = 0;
  const merges = new KeywordIndexMerges(async (interrupted) => {
    runs++;
    for (let step = 0; step < steps; step++) {
      if (interrupted()) return 2;
      await new Promise((resolve) => setTimeout(resolve, stepMs));
    }
    finished++;
    return 1;
  }, SCHEDULE);
  return { merges, runs: () => runs, finished: () => finished };
}

describe('when the SQLite keyword index is merged', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('merges at start, then once writes of enough entries pause', async () => {
    vi.useFakeTimers();
    const { merges, runs } = scheduled();
    await merges.settled();
    expect(runs()).toBe(1);
    // Changes keep coming within the quiet period: no merge while they do.
    for (let i = 0; i < 10; i++) {
      merges.changed(30);
      await vi.advanceTimersByTimeAsync(SCHEDULE.quietMs / 2);
    }
    expect(runs()).toBe(1);
    await vi.advanceTimersByTimeAsync(SCHEDULE.quietMs);
    await merges.settled();
    expect(runs()).toBe(2);
    await merges.close();
  });

  it('leaves a trickle of writes to the interval until enough have come', async () => {
    vi.useFakeTimers();
    const { merges, runs } = scheduled();
    merges.changed(SCHEDULE.minChanges - 1);
    await vi.advanceTimersByTimeAsync(SCHEDULE.quietMs * 5);
    expect(runs()).toBe(1);
    merges.changed(1);
    await vi.advanceTimersByTimeAsync(SCHEDULE.quietMs);
    expect(runs()).toBe(2);
    await vi.advanceTimersByTimeAsync(SCHEDULE.intervalMs);
    expect(runs()).toBe(3);
    await merges.close();
  });

  it('stops a run when writes resume, and continues it at the next pause however few they were', async () => {
    vi.useFakeTimers();
    const { merges, runs, finished } = scheduled({ steps: 5 });
    await vi.advanceTimersByTimeAsync(5 * 100);
    expect(finished()).toBe(1);
    merges.changed(SCHEDULE.minChanges);
    await vi.advanceTimersByTimeAsync(SCHEDULE.quietMs + 250);
    expect(runs()).toBe(2);
    // One write in the middle of the run: it stops at its next step, unfinished.
    merges.changed(1);
    await vi.advanceTimersByTimeAsync(100);
    await merges.settled();
    expect(finished()).toBe(1);
    // Another single write, far under minChanges: the pause after it still continues the merge.
    merges.changed(1);
    await vi.advanceTimersByTimeAsync(SCHEDULE.quietMs + 600);
    expect(runs()).toBe(3);
    expect(finished()).toBe(2);
    await merges.close();
  });

  it('spaces runs by their own cost: one that took 1 s is followed by none for 2 s after it', async () => {
    vi.useFakeTimers();
    const { merges, runs } = scheduled({ steps: 10 });
    await vi.advanceTimersByTimeAsync(1_100);
    expect(runs()).toBe(1);
    // It ended at 1,000 ms: the next may not start before 3,000, though the pause after this write ends at 2,100.
    merges.changed(SCHEDULE.minChanges);
    await vi.advanceTimersByTimeAsync(1_100);
    expect(runs()).toBe(1);
    await vi.advanceTimersByTimeAsync(900);
    expect(runs()).toBe(2);
    await vi.advanceTimersByTimeAsync(1_000);
    await merges.close();
  });

  it('waits out the spacing without shortening the quiet period that writes restart', async () => {
    vi.useFakeTimers();
    const { merges, runs } = scheduled({ steps: 10 });
    await vi.advanceTimersByTimeAsync(1_100);
    merges.changed(SCHEDULE.minChanges);
    // At 2,100 the pause is over, the spacing not (until 3,000): the run waits.
    await vi.advanceTimersByTimeAsync(1_100);
    expect(runs()).toBe(1);
    // Writes 950 ms apart, each a pause shorter than quietMs: none lets a run start, past the spacing too.
    for (let i = 0; i < 5; i++) {
      merges.changed(1);
      await vi.advanceTimersByTimeAsync(950);
      expect(runs()).toBe(1);
    }
    await vi.advanceTimersByTimeAsync(SCHEDULE.quietMs);
    expect(runs()).toBe(2);
    await vi.advanceTimersByTimeAsync(1_000);
    await merges.close();
  });

  it('runs nothing once closed', async () => {
    vi.useFakeTimers();
    const { merges, runs } = scheduled();
    await merges.settled();
    await merges.close();
    merges.changed(SCHEDULE.minChanges);
    await vi.advanceTimersByTimeAsync(SCHEDULE.intervalMs * 2);
    expect(runs()).toBe(1);
  });
});
