import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { App } from './server.js';

/** Who a request counts against: its API key (the admin key is one client), or its address without auth. */
function clientOf(request: FastifyRequest): string {
  const { principal } = request;
  if (principal.kind === 'key') return `key:${principal.key.id}`;
  return principal.kind === 'admin' ? 'admin' : `address:${request.ip}`;
}

/**
 * At most `perMinute` requests per client and minute on the routes registered after it in `scope` (off at 0);
 * beyond, 429 with `retry_after` and Retry-After, and the request does nothing. Each node counts in its own memory:
 * behind N nodes a client gets up to N times the limit.
 */
export async function limitRequestRate(scope: App, perMinute: number): Promise<void> {
  if (perMinute === 0) return;
  await scope.register(rateLimit, {
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: clientOf,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'rate_limited',
        `rate limit of ${context.max} requests a minute reached; retry in ${context.after}`,
        { retryAfter: Math.ceil(context.ttl / 1000) },
      ),
  });
}
