import { chrono, type Component, type ParsedComponents } from '../text/dates.js';
import type { MemoryCandidate } from '../../storage/types.js';
import { eventTime } from './boosts.js';
import {
  DAY_MS,
  dayStart,
  type Direction,
  directionOf,
  monthlyNeighbours,
  namedSpan,
  ordinalDays,
  pick,
  weekStart,
} from '../text/named-days.js';

/** A span of event time a query refers to. */
export interface TimeWindow {
  /** The words that named it, e.g. "last week", "May 2023". */
  text: string;
  start: string;
  end: string;
  /** Relative to now ("yesterday", "last week") rather than a calendar date. */
  relative: boolean;
}

const BARE_YEAR = /\b(19\d{2}|20\d{2})\b/g;

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The window of one parsed component: its day, its week, its month or its year, as precise as the words were
 * (text/named-days.ts `namedSpan`). A weekday or a date of no year is the one the query's tense points to: "what did
 * I do on Monday?" the last Monday (today included), "what is planned for Monday?" the next, "anything on Monday?" the
 * nearer; unless its words fix it ("next Thursday"). Relative: named from now ("yesterday", "next week") rather than
 * by the calendar.
 */
function windowOf(
  component: ParsedComponents,
  text: string,
  now: Date,
  direction: Direction,
): { start: number; end: number; relative: boolean } | null {
  const known = (unit: Component) => component.isCertain(unit);
  const relative =
    known('day') &&
    known('month') &&
    known('year') &&
    !/\d{4}/.test(text) &&
    !/\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i.test(text);
  const named = namedSpan(component, text, now.getTime(), direction);
  return named && { ...named, relative };
}

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
  return { start: dayStart(now - n * UNIT_MS[unit!.toLowerCase()]!), end: now };
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
    start: dayStart(now - farthest * unit),
    end: dayStart(now - nearest * unit) + DAY_MS - 1,
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
 * Time windows named in a query: dates, months, relative expressions (chrono-node), and bare years and days of the
 * month ("on the 14th"), which chrono leaves alone. A time of day alone names no window. A weekday alone ("on
 * Monday") is the one the query's tense points to (`windowOf`); a weekend its Saturday and Sunday; "the past week",
 * "the last 3 days" run up to now; "this week" from its Monday; "a few days ago" from six days ago to two.
 */
export function findTimeWindows(text: string, now: Date): TimeWindow[] {
  const windows: TimeWindow[] = [];
  const covered: Array<[number, number]> = [];
  const at = now.getTime();
  const direction = directionOf(text);
  const results = chrono.parse(text, now, { forwardDate: false });
  // A weekend is of the date the query names, if any: "the weekend of May 6, 2023", "last weekend before April 10".
  const dated = results.find((result) => result.start.isCertain('day') && result.start.isCertain('month'));
  const weekendAnchor = (dated && windowOf(dated.start, dated.text, now, direction)?.start) ?? at;
  for (const result of results) {
    const before = text.slice(0, result.index);
    // "Since Monday": a Monday gone by.
    const way = /\bsince\s*$/i.test(before) ? 'past' : direction;
    const stretch = upToNow(result.text, at) ?? vaguelyAgo(result.text, at);
    const weekend = weekendOf(result.text, weekendAnchor);
    // Words of a weekend stay terms (relative: false), as a weekday's do: memories say "the weekend" too.
    const from =
      (stretch && { ...stretch, relative: true }) ??
      (weekend && { ...weekend, relative: false }) ??
      windowOf(result.start, result.text, now, way);
    if (!from) continue;
    const to = result.end && !stretch && !weekend ? windowOf(result.end, result.text, now, way) : null;
    let start = from.start;
    let end = to ? Math.max(to.end, from.end) : from.end;
    // "since March" runs until now; "before March" from the beginning.
    if (/\b(since|after)\s*$/i.test(before)) end = Math.max(end, now.getTime());
    if (/\b(before|until|till|prior to)\s*$/i.test(before)) [start, end] = [0, from.start - 1];
    windows.push({ text: result.text, start: iso(start), end: iso(end), relative: from.relative });
    covered.push([result.index, result.index + result.text.length]);
  }
  const uncovered = (index: number) => !covered.some(([a, b]) => index >= a && index < b);
  for (const match of text.matchAll(THIS_WEEK)) {
    if (!uncovered(match.index)) continue;
    const monday = weekStart(at);
    // "Decisions this week" runs up to now; "what is planned this week" to its Sunday (and from now, below).
    const end = match[1] ? dayStart(at) - 1 : direction === 'future' ? monday + 7 * DAY_MS - 1 : at;
    windows.push({ text: match[0], start: iso(monday), end: iso(Math.max(end, monday + DAY_MS - 1)), relative: true });
  }
  for (const match of text.matchAll(THIS_DAY)) {
    if (!uncovered(match.index)) continue;
    windows.push({ text: match[0], start: iso(dayStart(at)), end: iso(dayStart(at) + DAY_MS - 1), relative: true });
  }
  for (const ordinal of ordinalDays(text)) {
    if (!uncovered(ordinal.index)) continue;
    const day = pick(monthlyNeighbours(ordinal.day, at), at, direction);
    windows.push({ text: ordinal.text, start: iso(day.start), end: iso(day.end), relative: true });
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
  // What is coming up starts now: a future-facing query ("what is coming up this month?") does not ask for what was
  // written earlier in its window, only for what its window still holds.
  if (direction === 'future')
    for (const window of windows)
      if (Date.parse(window.end) > at && Date.parse(window.start) < at) window.start = iso(at);
  return windows;
}

/** Words that make a query about time even without a date (the reference's temporal rule). */
export const TEMPORAL_WORDS =
  /\b(yesterday|today|tonight|tomorrow|recent|recently|lately|ago|since|last (week|month|year|time)|this (week|month|year)|earlier|latest|newest|oldest|first time)\b/i;

/** Whether a memory is of the window: its event time falls in it, or a day its text names does. */
export function isOfWindow(
  memory: Pick<MemoryCandidate, 'occurred_at' | 'created_at' | 'mentions'>,
  window: Pick<TimeWindow, 'start' | 'end'>,
): boolean {
  const at = eventTime(memory);
  if (at >= window.start && at <= window.end) return true;
  const named = memory.mentions;
  return named !== null && named.start <= window.end && named.end >= window.start;
}
