import { chrono, type Component, type ParsedComponents } from '../text/dates.js';

/** A span of event time a query refers to. */
export interface TimeWindow {
  /** The words that named it, e.g. "last week", "May 2023". */
  text: string;
  start: string;
  end: string;
  /** Relative to now ("yesterday", "last week") rather than a calendar date. */
  relative: boolean;
}

const DAY_MS = 86_400_000;
const BARE_YEAR = /\b(19\d{2}|20\d{2})\b/g;

const iso = (ms: number): string => new Date(ms).toISOString();

function dayStart(date: Date): number {
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/** How wide a relative expression is: "last week" means some day of that week, not exactly seven days ago. */
function relativeSpanMs(text: string): number {
  if (/\bweeks?\b/i.test(text)) return 7 * DAY_MS;
  if (/\bmonths?\b/i.test(text)) return 31 * DAY_MS;
  if (/\byears?\b/i.test(text)) return 366 * DAY_MS;
  return DAY_MS;
}

/** The window of one parsed component: its day, its month or its year, as precise as the words were. */
function windowOf(
  component: ParsedComponents,
  text: string,
  now: Date,
): { start: number; end: number; relative: boolean } | null {
  const known = (unit: Component) => component.isCertain(unit);
  if (!known('day') && !known('month') && !known('year') && !known('weekday')) return null; // a time of day alone
  const date = component.date();
  const relative =
    known('day') &&
    known('month') &&
    known('year') &&
    !/\d{4}/.test(text) &&
    !/\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i.test(text);
  if (relative) {
    const span = relativeSpanMs(text);
    const centre = dayStart(date) + DAY_MS / 2;
    return span === DAY_MS
      ? { start: dayStart(date), end: dayStart(date) + DAY_MS - 1, relative }
      : { start: centre - span / 2, end: centre + span / 2, relative };
  }
  let year = date.getUTCFullYear();
  // "in June" without a year: the most recent June, not the next one.
  if (!known('year') && date.getTime() > now.getTime()) year -= 1;
  const month = date.getUTCMonth();
  if (known('day')) {
    const start = Date.UTC(year, month, date.getUTCDate());
    return { start, end: start + DAY_MS - 1, relative };
  }
  if (known('month')) return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) - 1, relative };
  return { start: Date.UTC(year, 0, 1), end: Date.UTC(year + 1, 0, 1) - 1, relative };
}

/**
 * Time windows named in a query: dates, months, relative expressions (chrono-node), and bare years, which chrono
 * leaves alone ("what happened in 2023"). A time of day alone names no window.
 */
export function findTimeWindows(text: string, now: Date): TimeWindow[] {
  const windows: TimeWindow[] = [];
  const covered: Array<[number, number]> = [];
  for (const result of chrono.parse(text, now, { forwardDate: false })) {
    const from = windowOf(result.start, result.text, now);
    if (!from) continue;
    const to = result.end ? windowOf(result.end, result.text, now) : null;
    let start = from.start;
    let end = to ? Math.max(to.end, from.end) : from.end;
    // "since March" runs until now; "before March" from the beginning.
    const before = text.slice(0, result.index);
    if (/\b(since|after)\s*$/i.test(before)) end = Math.max(end, now.getTime());
    if (/\b(before|until|till|prior to)\s*$/i.test(before)) [start, end] = [0, from.start - 1];
    windows.push({ text: result.text, start: iso(start), end: iso(end), relative: from.relative });
    covered.push([result.index, result.index + result.text.length]);
  }
  for (const match of text.matchAll(BARE_YEAR)) {
    if (covered.some(([a, b]) => match.index >= a && match.index < b)) continue;
    const year = Number(match[1]);
    windows.push({
      text: match[0],
      start: iso(Date.UTC(year, 0, 1)),
      end: iso(Date.UTC(year + 1, 0, 1) - 1),
      relative: false,
    });
  }
  return windows;
}

/** Words that make a query about time even without a date (the reference's temporal rule). */
export const TEMPORAL_WORDS =
  /\b(yesterday|today|tonight|tomorrow|recent|recently|lately|ago|since|last (week|month|year|time)|this (week|month|year)|earlier|latest|newest|oldest|first time)\b/i;
