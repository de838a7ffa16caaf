import { type DateSpan, FACT_SCOPE, type Memory } from '../../storage/types.js';
import { chrono } from '../text/dates.js';
import {
  directionOf,
  MAX_NAMED_SPAN_MS,
  monthlyNeighbours,
  namedSpan,
  ordinalDays,
  pick,
  type Span,
} from '../text/named-days.js';

/** A text without a digit or one of these words names no day: chrono is not asked (50 to 80 µs a sentence). */
const MAY_NAME_A_DAY =
  /\d|\b(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|tomorrow|yesterday|week|month|year)/i;

/**
 * What chrono reads as a day that a note rarely means as one: the weekday abbreviations as words ("the sun", "I sat"),
 * "now", "today" and "tonight" (the day the memory is of, which its event time already says), a duration ("for 3
 * years", which chrono reads as three years on) and a bare "12/14" (a room, a ratio).
 */
const NOT_A_DAY = /^(?:(?:mon|tue|wed|thu|fri|sat|sun)|now|today|tonight|\d{1,2}[./-]\d{1,2})$|^for\b/i;
/**
 * How much of a text is read for days: a note names them in its first lines, and chrono's time grows with the text
 * (a memory of 100,000 characters of digits took 0.8 s, on the write's own thread; its 1,000 first, under 10 ms).
 */
const READ_CHARS = 1_000;

/**
 * The days a memory's text names ("on 14 December", "tomorrow at 9", "next Thursday and Friday", "the 20th"), from
 * the first to the last, read from `reference` (the memory's event time): relative words count from it, and a date
 * its words leave open is the one the text's tense points to (text/named-days.ts). Null when it names none. A time
 * of day alone names no day. Recall's temporal arm finds a memory by the days it names as by its event time: "what is
 * planned for next week?" finds "Dentist appointment moved to Wednesday at 10." written the Saturday before.
 */
export function mentionedDates(text: string, reference: Date): DateSpan | null {
  const content = text.slice(0, READ_CHARS);
  if (!MAY_NAME_A_DAY.test(content)) return null;
  const at = reference.getTime();
  if (!Number.isFinite(at)) return null;
  const direction = directionOf(content);
  const spans: Span[] = [];
  for (const result of chrono.parse(content, reference, { forwardDate: direction === 'future' })) {
    if (NOT_A_DAY.test(result.text.trim())) continue;
    for (const component of [result.start, result.end]) {
      const span = component && namedSpan(component, result.text, at, direction);
      if (span) spans.push(span);
    }
  }
  for (const { day } of ordinalDays(content)) spans.push(pick(monthlyNeighbours(day, at), at, direction));
  const first = spans[0];
  if (!first) return null;
  const start = Math.min(...spans.map((span) => span.start));
  const end = Math.max(...spans.map((span) => span.end));
  const kept = end - start <= MAX_NAMED_SPAN_MS ? { start, end } : first;
  if (kept.end - kept.start > MAX_NAMED_SPAN_MS) return null;
  const iso = (ms: number) => new Date(ms).toISOString();
  return Number.isFinite(kept.start) && year(kept.start) >= 0 && year(kept.end) <= 9999
    ? { start: iso(kept.start), end: iso(kept.end) }
    : null;
}

/**
 * The days a memory names, read from its event time (`occurred_at`, else `created_at`). None for an atomic fact: it
 * stands for its parent in recall, and the temporal arm searches originals only, so its days would never be read.
 */
export const mentionsOf = (
  memory: Pick<Memory, 'content' | 'occurred_at' | 'created_at'> & { source_scope?: string | null },
): DateSpan | null =>
  memory.source_scope === FACT_SCOPE
    ? null
    : mentionedDates(memory.content, new Date(memory.occurred_at ?? memory.created_at));

const year = (ms: number) => new Date(ms).getUTCFullYear();
