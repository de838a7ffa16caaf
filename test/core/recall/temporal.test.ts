import { describe, expect, it } from 'vitest';
import { TEMPORAL_WORDS, findTimeWindows } from '../../../src/core/recall/temporal.js';

const NOW = new Date('2024-03-15T12:00:00Z');
const windows = (text: string) =>
  findTimeWindows(text, NOW).map(({ start, end, relative }) => ({ start, end, relative }));

describe('findTimeWindows', () => {
  it('reads a month without a year as the most recent one', () => {
    expect(windows('what did I do in June')).toEqual([
      { start: '2023-06-01T00:00:00.000Z', end: '2023-06-30T23:59:59.999Z', relative: false },
    ]);
    expect(windows('what did I do in February')).toEqual([
      { start: '2024-02-01T00:00:00.000Z', end: '2024-02-29T23:59:59.999Z', relative: false },
    ]);
  });

  it('spans a whole month when the query names a month and a year', () => {
    expect(windows('books read in May 2023')).toEqual([
      { start: '2023-05-01T00:00:00.000Z', end: '2023-05-31T23:59:59.999Z', relative: false },
    ]);
  });

  it('spans one day for a full date', () => {
    expect(windows('the talk on 31 July, 2023')).toEqual([
      { start: '2023-07-31T00:00:00.000Z', end: '2023-07-31T23:59:59.999Z', relative: false },
    ]);
  });

  it('spans a whole year for a bare year, which chrono leaves alone', () => {
    expect(windows('what happened in 2023')).toEqual([
      { start: '2023-01-01T00:00:00.000Z', end: '2023-12-31T23:59:59.999Z', relative: false },
    ]);
  });

  it('reads yesterday as that day, relative to now', () => {
    expect(windows('what did I eat yesterday')).toEqual([
      { start: '2024-03-14T00:00:00.000Z', end: '2024-03-14T23:59:59.999Z', relative: true },
    ]);
  });

  it('reads "last week" and "next week" as the calendar weeks before and after this one, not one day', () => {
    expect(windows('what did I do last week')).toEqual([
      { start: '2024-03-04T00:00:00.000Z', end: '2024-03-10T23:59:59.999Z', relative: true },
    ]);
    expect(windows('what is planned for next week')).toEqual([
      { start: '2024-03-18T00:00:00.000Z', end: '2024-03-24T23:59:59.999Z', relative: true },
    ]);
  });

  // NOW is Friday 15 March 2024.
  it('reads a weekday, a date of no year and a day of the month the way the query points: back, ahead, or nearest', () => {
    const day = (date: string, relative = false) => ({
      start: `${date}T00:00:00.000Z`,
      end: `${date}T23:59:59.999Z`,
      relative,
    });
    expect(windows('what did I do on Wednesday')).toEqual([day('2024-03-13')]);
    expect(windows('what is planned for Wednesday')).toEqual([day('2024-03-20')]);
    expect(windows('what will happen on Wednesday')).toEqual([day('2024-03-20')]);
    // Neither: the nearer Wednesday, two days ago rather than five days on; the nearer 14 April, next month's.
    expect(windows('anything on Wednesday')).toEqual([day('2024-03-13')]);
    expect(windows('anything on 14 April')).toEqual([day('2024-04-14')]);
    expect(windows('what happened on 14 April')).toEqual([day('2023-04-14')]);
    // "The 14th" alone, which chrono does not read: this month's (yesterday) or next month's.
    expect(windows('anything on the 14th?')).toEqual([day('2024-03-14', true)]);
    expect(windows('what is due on the 2nd?')).toEqual([day('2024-04-02', true)]);
    // Words that fix it: "next Thursday" is a week on, not moved back to the latest Thursday.
    expect(windows('what happens next Thursday')).toEqual([day('2024-03-21')]);
  });

  it('starts a future-facing window now: what is coming up this month is what it still holds', () => {
    expect(windows('what is coming up this month')).toEqual([
      { start: NOW.toISOString(), end: '2024-03-31T23:59:59.999Z', relative: false },
    ]);
    // "This week" asked ahead runs to its Sunday, not up to now (which had left it empty).
    expect(windows('what is on my calendar this week')).toEqual([
      { start: NOW.toISOString(), end: '2024-03-17T23:59:59.999Z', relative: true },
    ]);
  });

  it('covers a range from its first to its last month', () => {
    expect(windows('trips from May to July 2023')).toEqual([
      { start: '2023-05-01T00:00:00.000Z', end: '2023-07-31T23:59:59.999Z', relative: false },
    ]);
  });

  it('runs "since" up to now and "before" from the beginning of time', () => {
    expect(windows('what changed since January')).toEqual([
      { start: '2024-01-01T00:00:00.000Z', end: NOW.toISOString(), relative: false },
    ]);
    expect(windows('what happened before March 2024')).toEqual([
      { start: '1970-01-01T00:00:00.000Z', end: '2024-02-29T23:59:59.999Z', relative: false },
    ]);
  });

  it('names no window for a time of day alone, nor for a query without a time', () => {
    expect(windows('the standup at 5pm')).toEqual([]);
    expect(windows('what tools does the team use')).toEqual([]);
  });

  // NOW is a Friday.
  it('reads a weekday alone as its latest day, today included, and "since Monday" from it', () => {
    const day = (date: string) => ({ start: `${date}T00:00:00.000Z`, end: `${date}T23:59:59.999Z`, relative: false });
    expect(windows('what did we ship on Monday')).toEqual([day('2024-03-11')]);
    expect(windows('what happened on Friday')).toEqual([day('2024-03-15')]);
    expect(windows('what happened on Saturday')).toEqual([day('2024-03-09')]);
    expect(windows('what changed since Monday')).toEqual([
      { start: '2024-03-11T00:00:00.000Z', end: NOW.toISOString(), relative: false },
    ]);
  });

  it('reads a weekend as its Saturday and Sunday: this one, the last, or the latest begun', () => {
    const weekend = (saturday: string, sunday: string) => ({
      start: `${saturday}T00:00:00.000Z`,
      end: `${sunday}T23:59:59.999Z`,
      relative: false,
    });
    expect(windows('what did I do last weekend')).toEqual([weekend('2024-03-09', '2024-03-10')]);
    expect(windows('anything break over the weekend')).toEqual([weekend('2024-03-09', '2024-03-10')]);
    expect(windows('plans for this weekend')).toEqual([weekend('2024-03-16', '2024-03-17')]);
    // Of the date the query names, where it names one.
    expect(windows('what did Maria do the weekend of May 6, 2023')[0]).toEqual(weekend('2023-05-06', '2023-05-07'));
    expect(windows('what did Maria do last weekend before April 10, 2023')[0]).toEqual(
      weekend('2023-04-08', '2023-04-09'),
    );
    expect(windows('what broke since last weekend')).toEqual([
      { start: '2024-03-09T00:00:00.000Z', end: NOW.toISOString(), relative: false },
    ]);
  });

  it('runs "this week", "the past week" and "the last 3 days" up to now, and "earlier this week" to yesterday', () => {
    const upToNow = (start: string) => ({ start: `${start}T00:00:00.000Z`, end: NOW.toISOString(), relative: true });
    expect(windows('decisions this week')).toEqual([upToNow('2024-03-11')]);
    expect(windows('what did we do earlier this week')).toEqual([
      { start: '2024-03-11T00:00:00.000Z', end: '2024-03-14T23:59:59.999Z', relative: true },
    ]);
    expect(windows('what happened in the past week')).toEqual([upToNow('2024-03-08')]);
    expect(windows('errors in the last 3 days')).toEqual([upToNow('2024-03-12')]);
    expect(windows('notes from the past few days')).toEqual([upToNow('2024-03-12')]);
    expect(windows('what did I say this morning')).toEqual([
      { start: '2024-03-15T00:00:00.000Z', end: '2024-03-15T23:59:59.999Z', relative: true },
    ]);
  });

  it('reads "a few days ago" as two to six days ago and "a couple of weeks ago" as one to three weeks, not one day', () => {
    const between = (start: string, end: string) => ({
      start: `${start}T00:00:00.000Z`,
      end: `${end}T23:59:59.999Z`,
      relative: true,
    });
    expect(windows('what did Omar say a few days ago?')).toEqual([between('2024-03-09', '2024-03-13')]);
    expect(windows('a couple of days ago')).toEqual([between('2024-03-12', '2024-03-14')]);
    expect(windows('the bug from a couple weeks ago')).toEqual([between('2024-02-23', '2024-03-08')]);
    // A count said is the day it says.
    expect(windows('what broke 3 days ago')).toEqual([between('2024-03-12', '2024-03-12')]);
  });

  it('keeps the words that named each window', () => {
    expect(findTimeWindows('in May 2023 and in 2021', NOW).map((window) => window.text)).toEqual(['May 2023', '2021']);
  });
});

describe('TEMPORAL_WORDS', () => {
  it('marks words about time that name no date', () => {
    for (const text of [
      'what did I do recently',
      'a while ago',
      'the latest release',
      'this month',
      'the first time we met',
    ])
      expect(TEMPORAL_WORDS.test(text), text).toBe(true);
    for (const text of ['what tools does the team use', 'a weekly report', 'the last page'])
      expect(TEMPORAL_WORDS.test(text), text).toBe(false);
  });
});
