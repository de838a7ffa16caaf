import { setTimeout as sleep } from 'node:timers/promises';

export interface RetryPolicy {
  attempts: number;
  /** Delay before the first retry; doubles after each further failure. */
  baseDelayMs: number;
  /** Ceiling for any single wait, including one asked for by the server. */
  maxDelayMs: number;
}

/** A failure worth another attempt (network error, timeout, 429, 5xx); `message` is meant for a person. */
export class RetryableError extends Error {
  constructor(
    message: string,
    /** The wait the server asked for (Retry-After), if it did. */
    readonly retryAfterMs: number | undefined = undefined,
  ) {
    super(message);
    this.name = 'RetryableError';
  }
}

/**
 * Runs `attempt` until it succeeds, throws something other than a RetryableError, or has been tried
 * `policy.attempts` times; the last error is rethrown as is.
 */
export async function withRetries<T>(policy: RetryPolicy, attempt: () => Promise<T>): Promise<T> {
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof RetryableError) || attemptNumber >= policy.attempts) throw error;
      await sleep(Math.min(policy.maxDelayMs, error.retryAfterMs ?? backoffDelay(attemptNumber, policy)));
    }
  }
}

/** Exponential backoff with "equal jitter": half fixed, half random, so clients that failed together spread out. */
export function backoffDelay(failedAttempts: number, { baseDelayMs, maxDelayMs }: RetryPolicy): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (failedAttempts - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
