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

  /** Whether a request is in flight or ended less than `ms` ago: the gap found is one between a client's calls. */
  servedWithin(ms: number): boolean {
    return this.inFlight > 0 || performance.now() - this.lastEnded < ms;
  }
}
