import { APICallError } from 'ai';
import { excerpt } from './excerpt.js';
import type { FailureClass } from './retry.js';

/** Network errors, 408, 409, 429 and 5xx are worth another attempt (the AI SDK's own verdict). */
export function classifyUpstreamError(error: unknown): FailureClass {
  if (!APICallError.isInstance(error)) return { retryable: false };
  return { retryable: error.isRetryable, retryAfterMs: retryAfterMs(error.responseHeaders) };
}

/** One line saying what the upstream did, with a hint at the setting most likely to fix it. */
export function describeUpstreamError(error: unknown): string {
  if (!APICallError.isInstance(error)) return excerpt(error instanceof Error ? error.message : String(error));
  const status = error.statusCode;
  if (status === undefined) {
    return `cannot reach ${error.url}: ${excerpt(error.message)} (check MEMD_LLM_BASE_URL and that the server is up)`;
  }
  const upstream = excerpt(error.responseBody || error.message);
  if (status < 300) {
    return `unexpected response from ${error.url} (${excerpt(error.message, 100)}): ${upstream} (check MEMD_LLM_BASE_URL points at the right API)`;
  }
  return `HTTP ${status} from ${error.url}: ${upstream}${hintFor(status)}`;
}

function hintFor(status: number): string {
  if (status === 401 || status === 403) return ' (check MEMD_LLM_API_KEY)';
  if (status === 404) return ' (check MEMD_LLM_MODEL and MEMD_LLM_BASE_URL)';
  if (status === 429) return ' (the upstream is rate limiting; lower the load or raise MEMD_LLM_MAX_RETRIES)';
  return '';
}

function retryAfterMs(headers: Record<string, string> | undefined): number | undefined {
  const millis = Number(headers?.['retry-after-ms']);
  if (Number.isFinite(millis) && millis >= 0) return millis;
  const value = headers?.['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
