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
  if (!Number.isNaN(iso) && /\d{4}-\d{2}-\d{2}/.test(value)) return new Date(iso).toISOString();
  const parsed = chrono.parseDate(value, reference, { forwardDate: false });
  return parsed ? parsed.toISOString() : null;
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
      return new Date(value < 1e12 ? value * 1000 : value).toISOString();
    }
  }
  return null;
}
