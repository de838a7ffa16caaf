import { Piscina } from 'piscina';
import { siblingModule, workerEntry } from '../../worker-entry.js';
import type { CheckpointResult } from './checkpoint-worker.js';

/**
 * How often the log is copied into the database file. An ingest of 2,500 memories a second writes a few MB of log
 * in that time, which a checkpoint copies in a few ms of its own thread.
 */
export const CHECKPOINT_INTERVAL_MS = 1_000;

/**
 * Checkpoints of the write-ahead log on a thread of their own. SQLite's automatic checkpoint runs inside the commit
 * that takes the log past 1,000 pages, on the connection that commits: memd's only writer, on the main thread. There
 * it copied the log into the database file and synced it while every request waited: at 100,000 memories, with the
 * enrichment backlog committing between recalls, 26 of 840 commits took 20–140 ms (1.6–1.9 ms a commit on average
 * against 0.8 without; BENCHMARKS.md, "checkpoints off the event loop"). The writer's automatic checkpoint is off
 * (`wal_autocheckpoint = 0`), and this thread's connection checkpoints every `intervalMs` instead
 * (checkpoint-worker.ts: passive copies that hold up nobody, and once the log is long, a short RESTART that empties
 * it, since under writes that never stop a passive checkpoint never catches the last commit).
 */
export class WalCheckpoints {
  #pool: Piscina | undefined;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<CheckpointResult | null> | null = null;
  #closed = false;

  constructor(
    private readonly path: string,
    private readonly intervalMs: number = CHECKPOINT_INTERVAL_MS,
  ) {}

  /** Checkpoints every `intervalMs` from now until close. */
  start(): void {
    this.#timer ??= setInterval(() => void this.run(), this.intervalMs);
    this.#timer.unref();
  }

  /**
   * One checkpoint now, or the one already running. Null when it failed (an I/O error, the database closing): the
   * next one copies what this one did not, as SQLite's own does after a failed attempt.
   */
  run(): Promise<CheckpointResult | null> {
    if (this.#closed) return Promise.resolve(null);
    this.#running ??= this.checkpoint().finally(() => (this.#running = null));
    return this.#running;
  }

  private async checkpoint(): Promise<CheckpointResult | null> {
    if (!this.#pool) {
      const { filename, execArgv } = workerEntry(siblingModule(import.meta.url, 'checkpoint-worker'));
      this.#pool = new Piscina({ filename, execArgv, minThreads: 1, maxThreads: 1, idleTimeout: Infinity });
    }
    try {
      return (await this.#pool.run({ path: this.path })) as CheckpointResult;
    } catch {
      return null;
    }
  }

  /** Stops checkpointing and closes the thread's connection: the writer's close then checkpoints what is left. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
    const pool = this.#pool;
    this.#pool = undefined;
    if (!pool) return;
    await pool.run(undefined, { name: 'close' });
    await pool.destroy();
  }
}
