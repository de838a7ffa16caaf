import { Mutex } from 'async-mutex';

/**
 * One session's operations, run one at a time in arrival order (a mutex hands the lock to its waiters first come,
 * first served). `onSettled` runs after each operation, whether it succeeded or failed.
 */
export class SerialQueue {
  private readonly mutex = new Mutex();
  /** Operations queued or running. */
  private pending = 0;

  constructor(private readonly onSettled: () => void) {}

  /** An operation is running, or the next one is about to. */
  get running(): boolean {
    return this.mutex.isLocked();
  }

  /** Nothing running and nothing waiting. */
  get idle(): boolean {
    return this.pending === 0;
  }

  async run<T>(body: () => Promise<T>): Promise<T> {
    this.pending += 1;
    try {
      return await this.mutex.runExclusive(body);
    } finally {
      this.pending -= 1;
      this.onSettled();
    }
  }
}
