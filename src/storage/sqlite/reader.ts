import { Piscina } from 'piscina';
import { siblingModule, workerEntry } from '../../worker-entry.js';
import type { ReadStatement, ReadTask } from './reader-worker.js';

/**
 * Two, so that the reads of concurrent recalls, and a recall's keyword and entity arms, need not queue for one
 * thread: at a million memories those statements took about 10 ms of a thread a recall. With four clients at once
 * the engine p50 went from 33.8–48.1 to 27.7–34.2 ms and recalls a second from 58.2–84.6 to 77.5–89.0; a serial
 * client's p50 moved by about 1 ms, within the noise (BENCHMARKS.md, "Two reader threads"). Each thread holds its
 * own connection and page cache (16 MiB at most).
 */
const READER_THREADS = 2;

/**
 * Connections to the database file on their own threads, for reads that can run while the main thread works
 * (`SearchEngine.read`: keyword searches and counts, links, backlink counts). better-sqlite3 runs statements
 * synchronously, so on the main thread a BM25 search and the HNSW search of the same recall run one after the other;
 * here they run at the same time on the machine's other core. WAL gives these connections every committed write, so
 * a memory acknowledged with 201 is found by its next read; writes never come here.
 */
export class SqliteReader {
  #pool: Piscina | undefined;

  constructor(private readonly path: string) {}

  /** Starts the threads and opens their connections, so the first searches do not pay for it. */
  async start(): Promise<void> {
    // Asked at once, each goes to an idle thread.
    await Promise.all(Array.from({ length: READER_THREADS }, () => this.allOf([{ sql: 'SELECT 1', parameters: [] }])));
  }

  /** The rows of each statement, run in order in one trip to the thread. */
  async allOf(statements: readonly ReadStatement[]): Promise<unknown[][]> {
    if (!this.#pool) {
      const { filename, execArgv } = workerEntry(siblingModule(import.meta.url, 'reader-worker'));
      // Several tasks may wait at a thread: it runs them one after the other as soon as it is free, rather than
      // when this (often busy) thread gets round to handing it the next one. An idle thread is given a task first.
      this.#pool = new Piscina({
        filename,
        execArgv,
        minThreads: READER_THREADS,
        maxThreads: READER_THREADS,
        idleTimeout: Infinity,
        concurrentTasksPerWorker: 8,
      });
    }
    // Only the text and parameters cross to the thread: a compiled Kysely query also carries its syntax tree.
    const task: ReadTask = {
      path: this.path,
      statements: statements.map(({ sql, parameters }) => ({ sql, parameters })),
    };
    return (await this.#pool.run(task)) as unknown[][];
  }

  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    if (!pool) return;
    // One close per thread, each handed to an idle one. Were a read still running, both could reach one thread: the
    // other's connection then closes as destroy ends its thread.
    await Promise.all(Array.from({ length: READER_THREADS }, () => pool.run(undefined, { name: 'close' })));
    await pool.destroy();
  }
}
