import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter } from '../../../src/providers/embedding/retry.js';

describe('retry timing', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('doubles the backoff ceiling per failure, jitters within its upper half and caps it', () => {
    const policy = { attempts: 5, baseDelayMs: 100, maxDelayMs: 300 };
    for (let i = 0; i < 50; i++) {
      expect(backoffDelay(1, policy)).toBeGreaterThanOrEqual(50);
      expect(backoffDelay(1, policy)).toBeLessThanOrEqual(100);
      expect(backoffDelay(2, policy)).toBeGreaterThanOrEqual(100);
      expect(backoffDelay(2, policy)).toBeLessThanOrEqual(200);
      expect(backoffDelay(4, policy)).toBeLessThanOrEqual(300);
    }
  });
});
