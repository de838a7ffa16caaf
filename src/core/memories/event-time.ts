import { chrono } from '../text/dates.js';
import type { JsonObject } from '../../storage/types.js';

/** Metadata keys that, by common convention, say when the remembered thing happened. First match wins. */
const EVENT_TIME_KEYS = [
  'occurred_at',
  'event_time',
  'event_date',
  'timestamp',
  'datetime',
  'date',
  'session_date',
  'time',
];

/**
 * Reads a date in ISO form or in words ("1:56 pm on 8 May, 2023", "yesterday") and returns it as ISO 8601 UTC.
 * Relative words are measured from `reference` (when the memory was written).
 */
export function parseDateText(value: string, reference: Date): string | null {
  const iso = Date.parse(value);
  if (!Number.isNaN(iso) && /\d{4}-\d{2}-\d{2}/.test(value)) return asIso(new Date(iso));
  const parsed = chrono.parseDate(value, reference, { forwardDate: false });
  return parsed ? asIso(parsed) : null;
}

/**
 * A date in ISO 8601 UTC with a four-digit year, the form every store, index and reader of event times expects;
 * null for any other (an invalid date, or a year before 0 or after 9999, which ISO writes as `+099999-…`). Metadata
 * is the client's own: a number or text there that is no such date is not an event time, and not an error.
 */
function asIso(date: Date): string | null {
  if (!Number.isFinite(date.getTime())) return null;
  const year = date.getUTCFullYear();
  return year >= 0 && year <= 9999 ? date.toISOString() : null;
}

/** When the memory's event happened, from its metadata, or null. Recency and temporal recall use it. */
export function eventTimeFromMetadata(metadata: JsonObject, reference: Date): string | null {
  for (const key of EVENT_TIME_KEYS) {
    const value = metadata[key];
    if (typeof value === 'string' && value.trim()) {
      const parsed = parseDateText(value, reference);
      if (parsed) return parsed;
    } else if (typeof value === 'number' && Number.isFinite(value)) {
      // Seconds or milliseconds since the epoch.
      const parsed = asIso(new Date(value < 1e12 ? value * 1000 : value));
      if (parsed) return parsed;
    }
  }
  return null;
}
