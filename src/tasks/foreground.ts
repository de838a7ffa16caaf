/**
 * Client requests in flight, so that background work gives way to them: a write is acknowledged sooner when the
 * enrichment of earlier writes waits for a gap between requests. Waiting is bounded, so the background is delayed
 * under sustained load, never starved.
 */
export class ForegroundActivity {
  private inFlight = 0;
  private waiters: Array<() => void> = [];

  begin(): void {
    this.inFlight++;
  }

  end(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.inFlight > 0) return;
    // A copy: each waiter takes itself off the list it was on.
    for (const resume of [...this.waiters]) resume();
    this.waiters = [];
  }

  /** Resolves when no request is in flight, or after `maxWaitMs` at the latest. */
  quiet(maxWaitMs: number): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, maxWaitMs);
      const waiters = this.waiters;
      function done() {
        clearTimeout(timer);
        const at = waiters.indexOf(done);
        if (at >= 0) waiters.splice(at, 1);
        resolve();
      }
      waiters.push(done);
    });
  }
}
