import { GaveWayError } from '../errors.js';

/**
 * Runs `work` again when the database rolled it back to break a deadlock, at most `attempts` times in all. Only for
 * work whole in one transaction that keeps nothing outside it, so that running it again is running it once.
 */
export async function againIfGaveWay<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof GaveWayError) || attempt >= attempts) throw error;
    }
  }
}
