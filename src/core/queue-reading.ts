import type { TaskSummary } from '../storage/types.js';
import type { Clock } from './clock.js';

/** The task queue, and the instant it was read at (the server's clock). */
export interface QueueReading {
  at: Date;
  summary: TaskSummary;
}

/**
 * A reading is used again while it is younger than this many times what it cost to read, so that counting the queue
 * takes at most a twentieth of a thread however often it is asked (while a count takes under half a second).
 */
const REUSE_PER_COST = 20;
/**
 * A queue of fewer tasks is read fresh at every ask (about 10 ms to count 50,000 at the rate measured at a million):
 * its figures are exact the moment a write or a task changes them, whatever the time a read happened to take.
 */
const LARGE_QUEUE = 50_000;
/** No reading is used again once this old, however long it took. */
const MAX_REUSE_MS = 10_000;

/**
 * The task queue's counts for `/health/ready` and `/metrics`, read for whoever asks at once and reused for a while
 * when reading is expensive. Both routes count the whole queue (`TaskStore.summary`); with about 950,000 tasks
 * queued after an ingest of a million memories, a count took 148–320 ms of SQLite's reader thread (BENCHMARKS.md), and
 * `/health/ready` needs no key: every probe, or anyone's loop of requests, cost that again, and recalls waited
 * behind it for the reader. Concurrent asks share one read; a read of a large queue that took `d` ms is reused for
 * min(20 × d, 10 s) of both clocks (a test's manual clock jumping forward ends it too). A failed read is not kept.
 */
export class QueueReadings {
  private last: { reading: QueueReading; readAtMs: number; reuseMs: number } | null = null;
  private pending: Promise<QueueReading> | null = null;

  constructor(
    private readonly summary: (nowIso: string) => Promise<TaskSummary>,
    private readonly clock: Clock,
    /** Monotonic milliseconds (tests pass their own). */
    private readonly elapsedMs: () => number = () => performance.now(),
  ) {}

  read(): Promise<QueueReading> {
    if (this.pending) return this.pending;
    const last = this.last;
    if (last) {
      const age = this.elapsedMs() - last.readAtMs;
      const clockAge = this.clock.now().getTime() - last.reading.at.getTime();
      if (age < last.reuseMs && clockAge >= 0 && clockAge < last.reuseMs) return Promise.resolve(last.reading);
    }
    const started = this.elapsedMs();
    const at = this.clock.now();
    const reading = this.summary(at.toISOString()).then((summary) => {
      const readAtMs = this.elapsedMs();
      const { pending, scheduled, running, failed } = summary.counts;
      const large = pending + scheduled + running + failed >= LARGE_QUEUE;
      const reuseMs = large ? Math.min(MAX_REUSE_MS, REUSE_PER_COST * (readAtMs - started)) : 0;
      const fresh = { at, summary };
      this.last = { reading: fresh, readAtMs, reuseMs };
      return fresh;
    });
    this.pending = reading;
    const done = () => {
      if (this.pending === reading) this.pending = null;
    };
    reading.then(done, done);
    return reading;
  }
}
