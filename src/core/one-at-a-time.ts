import { Mutex } from 'async-mutex';

/**
 * Runs work one at a time per key, in arrival order, within this process. A key with nothing running or waiting
 * holds no memory, so keys may be as many as the records they name.
 */
export class OneAtATime {
  private readonly locks = new Map<string, { mutex: Mutex; users: number }>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    let lock = this.locks.get(key);
    if (!lock) {
      lock = { mutex: new Mutex(), users: 0 };
      this.locks.set(key, lock);
    }
    lock.users += 1;
    try {
      return await lock.mutex.runExclusive(work);
    } finally {
      lock.users -= 1;
      if (lock.users === 0) this.locks.delete(key);
    }
  }

  /** Keys with work running or waiting. */
  get size(): number {
    return this.locks.size;
  }
}
