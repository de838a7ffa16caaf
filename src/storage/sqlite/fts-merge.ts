import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { GiveWay } from '../../tasks/foreground.js';
import type { Database } from '../database.js';

/** Pages of index one merge step writes: about 10 ms of work at 100k memories, so requests interleave. */
const PAGES_PER_STEP = 200;
/** A bound on one run, whatever the index: a run that stops here continues at the next. */
const MAX_STEPS = 500;

const segments = async (db: Kysely<Database>): Promise<number> =>
  Number((await sql<{ n: number }>`SELECT count(DISTINCT segid) AS n FROM memory_fts_idx`.execute(db)).rows[0]?.n ?? 0);

/**
 * Merges the keyword index into one segment, in small steps, until `interrupted()` says to stop. FTS5 adds a segment
 * per write and merges them only in groups, so an index built by many small writes holds dozens (25 at 164k
 * memories): each term of a search is then looked up in every one. Merged, the same searches took 18 % less time
 * (bench database, BENCHMARKS.md). Each step runs on the main connection and holds the event loop while it runs, so
 * each waits for `giveWay` first. Resolves with the segments left.
 */
export async function mergeKeywordIndex(
  db: Kysely<Database>,
  interrupted: () => boolean = () => false,
  giveWay: GiveWay = yieldToEventLoop,
): Promise<number> {
  // FTS5 keeps a merge in progress in the index: a run that stops here is continued by the next.
  for (let step = 0; step <= MAX_STEPS; step++) {
    const left = await segments(db);
    if (left <= 1 || interrupted()) return left;
    await giveWay();
    // Writes may have come while it waited: the next pause continues.
    if (interrupted()) break;
    // A negative budget starts an incremental 'optimize' (every segment into one); positive ones continue it.
    const budget = step === 0 ? -PAGES_PER_STEP : PAGES_PER_STEP;
    await sql`INSERT INTO memory_fts(memory_fts, rank) VALUES ('merge', ${budget})`.execute(db);
  }
  return segments(db);
}

/** When the keyword index is merged besides at start. */
export interface MergeSchedule {
  /** A merge this long after the last change, once `minChanges` have come since the last merge. */
  quietMs: number;
  minChanges: number;
  /** And at this interval whatever changed (deletions and updates of a few at a time). */
  intervalMs: number;
  /**
   * A merge starts no sooner after the last ended than this many times as long as that one took: its cost grows with
   * the index, and writes that pause just long enough, again and again, get at most a share of 1 / (1 + spacing) of
   * the connection's time for merges whatever the index's size.
   */
  spacing: number;
}

/**
 * Measured on the scale corpus at a million memories (BENCHMARKS.md, "the keyword index merged when writes pause"):
 * 10,000 batch writes left 10–17 segments, 100,000 left 12, and with 12 a recall's keyword reads took so much longer
 * that engine p50 rose from 9.5 to 11.5 ms asked again and from 9.4 to 17.9 ms the first time; a merge of the whole
 * index took 0.6–0.74 s of the main connection there, in steps (it rewrites the index, so its cost grows with it).
 * A merge while an ingest goes on does not finish: one started after 50,000 of 60,000 ran its 500 steps in 14 s
 * between the ingest's writes and left 10 segments, as FTS5's own merging does. So a merge starts once writes pause
 * for a few seconds and stops at its next step when they resume (the next pause continues it); a trickle of single
 * writes, each of which leaves a segment as a batch does, waits for a thousand of them or the ten-minute round.
 */
export const DEFAULT_MERGE_SCHEDULE: MergeSchedule = {
  quietMs: 3_000,
  minChanges: 1_000,
  intervalMs: 10 * 60_000,
  spacing: 20,
};

/**
 * Runs `merge` at start, after bursts of changes to the keyword index and on an interval, one run at a time; a
 * failed run (a busy database) is left for the next.
 */
export class KeywordIndexMerges {
  /** Every change counted, and how many there had been when the latest run was asked for. */
  private written = 0;
  private writtenAtRun = 0;
  /** A run stopped because writes resumed: the next pause continues it, however few they were. */
  private owed = false;
  private running: Promise<unknown> = Promise.resolve();
  /** A run is queued behind the one in progress and has not started: another request joins it. */
  private queued = false;
  private quiet: NodeJS.Timeout | null = null;
  /** When the last run ended and how long it took (Date.now(), ms). */
  private last = { endedAt: Number.NEGATIVE_INFINITY, tookMs: 0 };
  private readonly interval: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly merge: (interrupted: () => boolean) => Promise<number>,
    private readonly schedule: MergeSchedule = DEFAULT_MERGE_SCHEDULE,
  ) {
    this.interval = setInterval(() => this.run(), schedule.intervalMs);
    this.interval.unref();
    this.run();
  }

  /** Entries added to or removed from the index (counted as written, whether or not their transaction commits). */
  changed(count: number): void {
    this.written += count;
    if (this.written - this.writtenAtRun < this.schedule.minChanges && !this.owed) return;
    if (this.quiet) this.quiet.refresh();
    else this.runIn(this.schedule.quietMs);
  }

  /** Every run asked for so far, finished. */
  settled(): Promise<unknown> {
    return this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopQuietTimer();
    clearInterval(this.interval);
    await this.running;
  }

  private run(): void {
    this.stopQuietTimer();
    if (this.closed || this.queued) return;
    const wait = this.last.endedAt + this.schedule.spacing * this.last.tookMs - Date.now();
    // Too soon after the last: the changes wait for their turn. Never for less than the quiet period, as `changed`
    // restarts this timer at each write: shorter, it would let a merge start in a pause of less than `quietMs`.
    if (wait > 0) {
      this.runIn(Math.max(wait, this.schedule.quietMs));
      return;
    }
    this.writtenAtRun = this.written;
    this.queued = true;
    this.running = this.running
      .then(() => {
        this.queued = false;
        return this.closed ? undefined : this.timed();
      })
      .catch(() => undefined);
  }

  private async timed(): Promise<void> {
    const started = Date.now();
    const interrupted = () => this.closed || this.written !== this.writtenAtRun;
    try {
      const left = await this.merge(interrupted);
      this.owed = left > 1 && interrupted();
    } finally {
      const endedAt = Date.now();
      this.last = { endedAt, tookMs: endedAt - started };
    }
  }

  private runIn(ms: number): void {
    this.stopQuietTimer();
    this.quiet = setTimeout(() => this.run(), ms);
    this.quiet.unref();
  }

  private stopQuietTimer(): void {
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = null;
  }
}
