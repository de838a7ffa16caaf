import { Piscina } from 'piscina';
import { siblingModule, workerEntry } from '../../worker-entry.js';
import type { ReadStatement, ReadTask } from './reader-worker.js';

/**
 * A second connection to the database file, on its own thread, for reads that can run while the main thread works
 * (`SearchEngine.read`: keyword searches and counts, links, backlink counts). better-sqlite3 runs statements synchronously, so on the main thread a BM25
 * search and the HNSW search of the same recall run one after the other; here they run at the same time on the
 * machine's other core. WAL gives this connection every committed write, so a memory acknowledged with 201 is
 * found by its next read; writes never come here.
 */
export class SqliteReader {
  #pool: Piscina | undefined;

  constructor(private readonly path: string) {}

  /** Starts the thread and opens its connection, so the first search does not pay for it. */
  async start(): Promise<void> {
    await this.allOf([{ sql: 'SELECT 1', parameters: [] }]);
  }

  /** The rows of each statement, run in order in one trip to the thread. */
  async allOf(statements: readonly ReadStatement[]): Promise<unknown[][]> {
    if (!this.#pool) {
      const { filename, execArgv } = workerEntry(siblingModule(import.meta.url, 'reader-worker'));
      // Several tasks may wait at the thread: it runs them one after the other as soon as it is free, rather than
      // when this (often busy) thread gets round to handing it the next one.
      this.#pool = new Piscina({
        filename,
        execArgv,
        minThreads: 1,
        maxThreads: 1,
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
    await pool.run(undefined, { name: 'close' });
    await pool.destroy();
  }
}
