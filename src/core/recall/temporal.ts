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
  if (known('weekday') && !known('day') && !known('month') && !known('year')) {
    // "on Monday": the latest Monday, today included (it had spanned a whole year, and the year before this one).
    const day = dayStart(date) > now.getTime() ? dayStart(date) - 7 * DAY_MS : dayStart(date);
    return { start: day, end: day + DAY_MS - 1, relative: false };
  }
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

/** Monday 00:00 of the week `at` is in (weeks start on Monday, as ISO 8601's do). */
const weekStart = (at: number): number => dayStart(new Date(at)) - ((new Date(at).getUTCDay() + 6) % 7) * DAY_MS;

const COUNTS: Readonly<Record<string, number>> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };
const UNIT_MS: Readonly<Record<string, number>> = { day: DAY_MS, week: 7 * DAY_MS, month: 31 * DAY_MS };
/**
 * A stretch of time up to now: "the past week", "past 7 days", "the last 3 days", "the last few weeks". chrono reads
 * each as the one day that many units ago; the words ask for everything since. ("Last week", "last month" without a
 * count stay the calendar's.) Few, a couple, several: three.
 */
const UP_TO_NOW =
  /\b(?:(past)|last|previous)\s+(?:(\d+|a|an|one|two|three|four|five|six|few|couple(?: of)?|several)\s+)?(day|week|month)s?\b/i;
function upToNow(text: string, now: number): { start: number; end: number } | null {
  const match = UP_TO_NOW.exec(text);
  if (!match) return null;
  const [, past, count, unit] = match;
  if (!past && !count) return null;
  const n = count ? Number(count) || COUNTS[count.toLowerCase()] || 3 : 1;
  return { start: dayStart(new Date(now - n * UNIT_MS[unit!.toLowerCase()]!)), end: now };
}

/**
 * "A few days ago", "a couple of weeks ago", "several months ago": no one day, which chrono reads them as (three days
 * ago, two weeks ago), but a stretch around it. A couple: one to three units ago; a few or several: two to six.
 */
const VAGUELY_AGO = /\b(few|couple(?:\s+of)?|several)\s+(day|week|month)s?\s+ago\b/i;
function vaguelyAgo(text: string, now: number): { start: number; end: number } | null {
  const match = VAGUELY_AGO.exec(text);
  if (!match) return null;
  const unit = UNIT_MS[match[2]!.toLowerCase()]!;
  const [nearest, farthest] = match[1]!.toLowerCase().startsWith('couple') ? [1, 3] : [2, 6];
  return {
    start: dayStart(new Date(now - farthest * unit)),
    end: dayStart(new Date(now - nearest * unit)) + DAY_MS - 1,
  };
}

/**
 * A weekend, of the week of `now` (or of the date the query names): "this weekend" the one of that week, "last
 * weekend" the one before, "the weekend" the latest begun.
 */
function weekendOf(text: string, now: number): { start: number; end: number } | null {
  const match = /\b(this|last|past|previous)?\s*weekend\b/i.exec(text);
  if (!match) return null;
  const saturday = weekStart(now) + 5 * DAY_MS;
  const which = match[1]?.toLowerCase();
  const start = which === 'this' || (!which && now >= saturday) ? saturday : saturday - 7 * DAY_MS;
  return { start, end: start + 2 * DAY_MS - 1 };
}

/** Phrases chrono names no window for: "this week", "earlier this week", "this morning", "tonight". */
const THIS_WEEK = /\b(earlier\s+)?this\s+week\b/gi;
const THIS_DAY = /\bthis\s+(?:morning|afternoon|evening)\b|\btonight\b/gi;

/**
 * Time windows named in a query: dates, months, relative expressions (chrono-node), and bare years, which chrono
 * leaves alone ("what happened in 2023"). A time of day alone names no window. A weekday alone ("on Monday") is its
 * latest day; a weekend its Saturday and Sunday; "the past week", "the last 3 days" run up to now; "this week" from its
 * Monday; "a few days ago" from six days ago to two.
 */
export function findTimeWindows(text: string, now: Date): TimeWindow[] {
  const windows: TimeWindow[] = [];
  const covered: Array<[number, number]> = [];
  const at = now.getTime();
  const results = chrono.parse(text, now, { forwardDate: false });
  // A weekend is of the date the query names, if any: "the weekend of May 6, 2023", "last weekend before April 10".
  const dated = results.find((result) => result.start.isCertain('day') && result.start.isCertain('month'));
  const weekendAnchor = (dated && windowOf(dated.start, dated.text, now)?.start) ?? at;
  for (const result of results) {
    const stretch = upToNow(result.text, at) ?? vaguelyAgo(result.text, at);
    const weekend = weekendOf(result.text, weekendAnchor);
    // Words of a weekend stay terms (relative: false), as a weekday's do: memories say "the weekend" too.
    const from =
      (stretch && { ...stretch, relative: true }) ??
      (weekend && { ...weekend, relative: false }) ??
      windowOf(result.start, result.text, now);
    if (!from) continue;
    const to = result.end && !stretch && !weekend ? windowOf(result.end, result.text, now) : null;
    let start = from.start;
    let end = to ? Math.max(to.end, from.end) : from.end;
    // "since March" runs until now; "before March" from the beginning.
    const before = text.slice(0, result.index);
    if (/\b(since|after)\s*$/i.test(before)) end = Math.max(end, now.getTime());
    if (/\b(before|until|till|prior to)\s*$/i.test(before)) [start, end] = [0, from.start - 1];
    windows.push({ text: result.text, start: iso(start), end: iso(end), relative: from.relative });
    covered.push([result.index, result.index + result.text.length]);
  }
  const uncovered = (index: number) => !covered.some(([a, b]) => index >= a && index < b);
  for (const match of text.matchAll(THIS_WEEK)) {
    if (!uncovered(match.index)) continue;
    const monday = weekStart(at);
    const end = match[1] ? dayStart(now) - 1 : at;
    windows.push({ text: match[0], start: iso(monday), end: iso(Math.max(end, monday + DAY_MS - 1)), relative: true });
  }
  for (const match of text.matchAll(THIS_DAY)) {
    if (!uncovered(match.index)) continue;
    windows.push({ text: match[0], start: iso(dayStart(now)), end: iso(dayStart(now) + DAY_MS - 1), relative: true });
  }
  for (const match of text.matchAll(BARE_YEAR)) {
    if (!uncovered(match.index)) continue;
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
