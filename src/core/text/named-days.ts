import type { ParsedComponents } from './dates.js';

/**
 * Which way a text's dates point when its words leave it open. "Wednesday", "14 December", "in March" and "the 14th"
 * name a day or a month of no given year or week: a note that the dentist appointment moved to Wednesday means the
 * coming one, "I went to the market on Wednesday" the last one. Read from the words around the date: a text that
 * speaks of the future (will, next, going to, an appointment) points forward, one in the past tense back, and one
 * with neither means the nearest.
 */
export type Direction = 'past' | 'future' | 'nearest';

export const DAY_MS = 86_400_000;

/**
 * The longest span of named days a memory keeps: one naming days further apart keeps its first named day alone, so
 * that a search of a window reads a bounded range of the index (`MemoryStore.mentioning`).
 */
export const MAX_NAMED_SPAN_MS = 400 * DAY_MS;

/** Words that put a text in the future whatever else it says. */
const SURELY_FUTURE = /\b(?:will|shall|going to|gonna|tomorrow|upcoming|coming up)\b|\w'll\b/i;
/** Words of the past tense (a verb's -ed form is left out: "booked", "moved to Wednesday", "planned" look ahead). */
const PAST = /\b(?:was|were|did|had|went|ago|yesterday|last|happened|used to|been)\b/i;
/**
 * Words that look ahead unless the text is in the past tense ("I had an appointment on Wednesday", "the next day we
 * went …").
 */
const LIKELY_FUTURE =
  /\b(?:next|plan|plans|planned|planning|schedule|scheduled|appointment|appointments|booked|due|deadline|remind|need to|needs to|have to|has to|must|soon|calendar|agenda)\b/i;

export function directionOf(text: string): Direction {
  if (SURELY_FUTURE.test(text)) return 'future';
  if (PAST.test(text)) return 'past';
  if (LIKELY_FUTURE.test(text)) return 'future';
  return 'nearest';
}

/** Midnight UTC of the day `ms` is in. */
export const dayStart = (ms: number): number => {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
};

/** A span of time in milliseconds, both ends included. */
export interface Span {
  start: number;
  end: number;
}

/**
 * Of the spans a date's words may mean, the one the direction picks around `reference`: the latest begun by the end
 * of the reference's day (past), the earliest not over before its start (future), or the one whose start is closest
 * (nearest). Falls back to the closest where none lies that way.
 */
export function pick(spans: readonly Span[], reference: number, direction: Direction): Span {
  const today = dayStart(reference);
  const closest = () =>
    spans.reduce((best, span) => (Math.abs(span.start - reference) < Math.abs(best.start - reference) ? span : best));
  if (direction === 'past') {
    const begun = spans.filter((span) => span.start < today + DAY_MS);
    return begun.length > 0 ? begun.reduce((a, b) => (b.start > a.start ? b : a)) : closest();
  }
  if (direction === 'future') {
    const ahead = spans.filter((span) => span.end >= today);
    return ahead.length > 0 ? ahead.reduce((a, b) => (b.start < a.start ? b : a)) : closest();
  }
  return closest();
}

/** The same day of the month in the month of `reference` and the months either side (a day a month lacks is skipped). */
export function monthlyNeighbours(day: number, reference: number): Span[] {
  const at = new Date(reference);
  const spans: Span[] = [];
  for (const offset of [-1, 0, 1]) {
    const start = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, day);
    if (new Date(start).getUTCDate() === day) spans.push({ start, end: start + DAY_MS - 1 });
  }
  return spans;
}

/**
 * What follows a day of the month named alone: the end of a clause, or a word that starts another part of it ("on
 * the 14th at 9", "the 20th, need to …"). Not a noun: "the 3rd row", "the 2nd time"; nor a month ("the 14th of
 * December" is chrono's).
 */
const AFTER_A_DAY = /^\s*(?:$|[,.;:!?)]|(?:at|and|or|in|to|for|from|until|till|but|so|we|i|is|was|will)\b)/i;

/** "On the 14th", "the 3rd": a day of the month named alone, which chrono does not read. */
export function ordinalDays(text: string): Array<{ text: string; index: number; day: number }> {
  const found: Array<{ text: string; index: number; day: number }> = [];
  for (const match of text.matchAll(/\bthe\s+([1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b/gi)) {
    if (!AFTER_A_DAY.test(text.slice(match.index + match[0].length))) continue;
    found.push({ text: match[0], index: match.index, day: Number(match[1]) });
  }
  return found;
}

/** Words that fix a weekday's or a month's week or year themselves ("next Thursday", "last March"). */
const ANCHORED = /\b(?:next|last|this|past|previous|coming|ago|tomorrow|yesterday)\b/i;

/** Monday 00:00 UTC of the week `ms` is in (weeks start on Monday, as ISO 8601's do). */
export const weekStart = (ms: number): number => dayStart(ms) - ((new Date(ms).getUTCDay() + 6) % 7) * DAY_MS;

/**
 * The day, month or year one parsed date names, as precise as its words: "next week", "two weeks ago" and "last
 * month" their whole calendar week (Monday to Sunday) or month, not the one day chrono counts to; a weekday or a date
 * without its year moved a week or a year the way the text points (`direction`), unless its words fix it ("next
 * Thursday", "last March").
 */
export function namedSpan(component: ParsedComponents, text: string, at: number, direction: Direction): Span | null {
  const known = (unit: 'day' | 'month' | 'year' | 'weekday') => component.isCertain(unit);
  const date = component.date();
  const ms = date.getTime();
  if (!Number.isFinite(ms)) return null;
  const y = date.getUTCFullYear();
  const monthOf = (year: number) => ({
    start: Date.UTC(year, date.getUTCMonth(), 1),
    end: Date.UTC(year, date.getUTCMonth() + 1, 1) - 1,
  });
  const yearOf = (year: number) => ({ start: Date.UTC(year, 0, 1), end: Date.UTC(year + 1, 0, 1) - 1 });
  const unit = /\b(week|month|year)s?\b/i.exec(text)?.[1]?.toLowerCase();
  if (unit && known('day') && known('month') && known('year')) {
    if (unit === 'week') return { start: weekStart(ms), end: weekStart(ms) + 7 * DAY_MS - 1 };
    return unit === 'month' ? monthOf(y) : yearOf(y);
  }
  // A year written in the date's words fixes it too: "from May to July 2023" is of 2023 from its start.
  const free = !ANCHORED.test(text) && !/\b\d{4}\b/.test(text);
  if (known('day') || known('weekday')) {
    const day = { start: dayStart(ms), end: dayStart(ms) + DAY_MS - 1 };
    if (!free || known('year')) return day;
    if (!known('day') && !known('month'))
      return pick(
        [-1, 0, 1].map((k) => shifted(day, k * 7 * DAY_MS)),
        at,
        direction,
      );
    return pick(
      [-1, 0, 1].map((k) => inYear(day, y + k)),
      at,
      direction,
    );
  }
  if (known('month')) return !free || known('year') ? monthOf(y) : pick([y - 1, y, y + 1].map(monthOf), at, direction);
  return known('year') ? yearOf(y) : null;
}

const shifted = (span: Span, by: number): Span => ({ start: span.start + by, end: span.end + by });

function inYear(day: Span, year: number): Span {
  const date = new Date(day.start);
  const start = Date.UTC(year, date.getUTCMonth(), date.getUTCDate());
  return { start, end: start + DAY_MS - 1 };
}
