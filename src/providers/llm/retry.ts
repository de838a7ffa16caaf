import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How one call spends its time. `timeoutMs` is the budget of the whole call — every attempt and
 * every backoff wait — so a caller (an HTTP handler, a task holding a lease) knows the worst case
 * up front instead of multiplying it by the retry count.
 */
export interface RetryPolicy {
  timeoutMs: number;
  /** Attempts after the first one; only errors classified as retryable are retried. */
  maxRetries: number;
  /** First backoff wait; it doubles per retry up to `maxDelayMs`, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface FailureClass {
  retryable: boolean;
  /** The upstream's own wait hint (Retry-After); honoured when longer than the backoff. */
  retryAfterMs?: number;
}

export type GiveUpReason = 'timeout' | 'not_retryable' | 'retries_exhausted' | 'no_time_left';

/**
 * Why `runWithRetries` stopped; callers turn it into their own error. `lastError` is the last
 * attempt's error, except on a timeout, where it is the error of the attempt before the one cut
 * off (undefined if there was none), since "aborted" says nothing about the upstream.
 */
export class GaveUp extends Error {
  constructor(
    readonly reason: GiveUpReason,
    readonly attempts: number,
    readonly lastError: unknown,
  ) {
    super(`gave up (${reason}) after ${attempts} attempt(s)`, { cause: lastError });
    this.name = 'GaveUp';
  }
}

/**
 * Runs `attempt` until it succeeds, the error is not retryable, retries are used up, or the budget
 * runs out. A caller's abort rejects with the caller's reason, everything else with `GaveUp`.
 */
export async function runWithRetries<T>(
  attempt: (signal: AbortSignal) => Promise<T>,
  policy: RetryPolicy,
  classify: (error: unknown) => FailureClass,
  callerSignal?: AbortSignal,
): Promise<T> {
  callerSignal?.throwIfAborted();
  const deadline = Date.now() + policy.timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException(`timed out after ${policy.timeoutMs} ms`, 'TimeoutError')),
    policy.timeoutMs,
  );
  const forwardCallerAbort = (): void => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', forwardCallerAbort, { once: true });
  let previousError: unknown;
  try {
    for (let attempts = 1; ; attempts++) {
      try {
        return await settleByAbort(attempt(controller.signal), controller.signal);
      } catch (error) {
        if (callerSignal?.aborted) throw callerSignal.reason;
        if (controller.signal.aborted) throw new GaveUp('timeout', attempts, previousError);
        const failure = classify(error);
        if (!failure.retryable) throw new GaveUp('not_retryable', attempts, error);
        if (attempts > policy.maxRetries) throw new GaveUp('retries_exhausted', attempts, error);
        const wait = Math.max(backoffMs(policy, attempts), failure.retryAfterMs ?? 0);
        // Sleeping into a certain timeout would only hide the real error behind "timed out".
        if (Date.now() + wait >= deadline) throw new GaveUp('no_time_left', attempts, error);
        previousError = error;
        await sleep(wait, undefined, { signal: controller.signal }).catch(() => {
          throw callerSignal?.aborted ? callerSignal.reason : new GaveUp('timeout', attempts, error);
        });
      }
    }
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', forwardCallerAbort);
  }
}

/** Exponential backoff with "equal jitter": at least half the step, so retries never bunch at zero. */
function backoffMs(policy: RetryPolicy, failedAttempts: number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failedAttempts - 1));
  return step / 2 + Math.random() * (step / 2);
}

/**
 * Rejects as soon as `signal` aborts, even if `work` ignores it: the time bound must not depend on
 * every layer below honouring the signal.
 */
function settleByAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
