import { ConflictError, ConnectionError, type MemdError, RateLimitedError, ServiceUnavailableError } from './errors.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 turns retrying off). */
  retries?: number;
  /** The first backoff step in ms (default 250); each retry doubles it, with full jitter. */
  baseDelayMs?: number;
  /** The longest backoff step in ms (default 8000). */
  maxDelayMs?: number;
  /**
   * The longest wait in ms the client accepts from a Retry-After (default 30000): a server that asks for more is
   * answered by surfacing its error at once, with `retryAfter` for the caller to act on.
   */
  maxRetryAfterMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 30_000 };

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** 503s that say how the server is configured (no language model, no secret key): asking again changes nothing. */
const LASTING_UNAVAILABILITY = new Set(['provider_unavailable', 'secrets_unavailable']);

export interface FailedAttempt {
  /** 0 for the first attempt. */
  attempt: number;
  error: MemdError;
  method: string;
  /** The operation is declared safe to send twice (a POST that only reads, like recall); GET, PUT and DELETE always are. */
  idempotent: boolean;
  /** The request body can be sent again (not a stream already consumed). */
  replayable: boolean;
}

/**
 * How long to wait before the next attempt, or undefined to surface the error. 429 and 503 are answered before the
 * request does anything, so they are retried for every method; so is a 409 with a Retry-After, which the server sends
 * when the database rolled the call back for another's sake and nothing changed (a deadlock broken). A connection
 * failure may come after the server acted, so only idempotent requests are sent again. A timeout is the caller's
 * budget spent, and is never retried.
 */
export function retryDelay(
  policy: RetryPolicy,
  failed: FailedAttempt,
  random: () => number = Math.random,
): number | undefined {
  if (failed.attempt >= policy.retries || !failed.replayable) return undefined;
  const { error } = failed;
  const backoff = random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** failed.attempt);
  if (
    error instanceof RateLimitedError ||
    (error instanceof ServiceUnavailableError && !LASTING_UNAVAILABILITY.has(error.code)) ||
    (error instanceof ConflictError && error.retryAfter !== undefined)
  ) {
    if (error.retryAfter === undefined) return backoff;
    const asked = error.retryAfter * 1000;
    return asked > policy.maxRetryAfterMs ? undefined : Math.max(asked, backoff);
  }
  if (error instanceof ConnectionError && (failed.idempotent || IDEMPOTENT_METHODS.has(failed.method))) return backoff;
  return undefined;
}

/** Seconds from a Retry-After header: a number of seconds or an HTTP date. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
