import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/**
 * The longest background work waits at one of its steps for client requests to finish. A recall at a million
 * memories takes 10-20 ms, so a serial client's call is waited out; requests that overlap without a gap (a bulk
 * ingest) slow each step of the background by at most this, not by the foreground wait.
 */
const GIVE_WAY_MAX_MS = 50;

/**
 * Awaited by background work between its steps (enrichment's, SQLite's keyword index merge): resolves at once when no
 * client request is in flight, else when none is (or after a bound). A step runs to its end without reading the
 * socket, so without this a request that arrives while the work runs waits for all of it. A server hands in
 * `ForegroundActivity.giveWay`.
 */
export type GiveWay = () => Promise<void>;

/**
 * Client requests in flight, so that background work gives way to them: a write is acknowledged sooner when the
 * enrichment of earlier writes waits for a gap between requests. Waiting is bounded, so the background is delayed
 * under sustained load, never starved.
 */
export class ForegroundActivity {
  private inFlight = 0;
  private waiters: Array<() => void> = [];
  /** When the last request ended (performance.now()), or -Infinity before any. */
  private lastEnded = Number.NEGATIVE_INFINITY;

  begin(): void {
    this.inFlight++;
  }

  end(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.lastEnded = performance.now();
    if (this.inFlight > 0) return;
    // A copy: each waiter takes itself off the list it was on.
    for (const resume of [...this.waiters]) resume();
    this.waiters = [];
  }

  /**
   * Resolves when no request is in flight (true), or after `maxWaitMs` at the latest (false: requests kept coming,
   * and the caller starts anyway).
   */
  quiet(maxWaitMs: number): Promise<boolean> {
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), maxWaitMs);
      const waiters = this.waiters;
      const resume = () => done(true);
      function done(found: boolean) {
        clearTimeout(timer);
        const at = waiters.indexOf(resume);
        if (at >= 0) waiters.splice(at, 1);
        resolve(found);
      }
      waiters.push(resume);
    });
  }

  /**
   * What background work awaits before each of its steps (enrichment's, the keyword index merge's): a turn of the
   * event loop, then at once when no request is in flight, else when none is, or after min(`foregroundWaitMs`,
   * GIVE_WAY_MAX_MS); with a foreground wait of 0 only the turn. A step runs to its end without reading the socket, so
   * without this a request that arrives meanwhile waits for every step that follows too.
   */
  async giveWay(foregroundWaitMs: number): Promise<void> {
    // Lets the event loop read a request that arrived while the last step ran, so that it counts as in flight (and
    // serves it at all: a merge's steps are synchronous statements, which yield no turn between them).
    await yieldToEventLoop();
    const wait = Math.min(GIVE_WAY_MAX_MS, foregroundWaitMs);
    if (wait > 0) await this.quiet(wait);
  }

  /** Whether a request is in flight or ended less than `ms` ago: the gap found is one between a client's calls. */
  servedWithin(ms: number): boolean {
    return this.inFlight > 0 || performance.now() - this.lastEnded < ms;
  }
}
