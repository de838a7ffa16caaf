import { describe, expect, it } from 'vitest';
import { mentionedDates } from '../../../src/core/memories/mentioned-dates.js';

// Saturday 5 December 2026, noon.
const WRITTEN = new Date('2026-12-05T12:00:00Z');
const named = (text: string) => {
  const span = mentionedDates(text, WRITTEN);
  return span && `${span.start.slice(0, 10)}..${span.end.slice(0, 10)}`;
};

describe('mentionedDates', () => {
  it('reads the days a note names, from the day it is of', () => {
    expect(named('Flight to Lisbon on 14 December at 7:40.')).toBe('2026-12-14..2026-12-14');
    expect(named('Booked a haircut for tomorrow at 9.')).toBe('2026-12-06..2026-12-06');
    expect(named('Yesterday I finished the quarterly report.')).toBe('2026-12-04..2026-12-04');
    expect(named("Sara's wedding was on 12 September 2026 in Porto.")).toBe('2026-09-12..2026-09-12');
    // From the first day named to the last.
    expect(named('Team offsite next Thursday and Friday in Ghent.')).toBe('2026-12-10..2026-12-11');
    // A week, a month: the whole of it.
    expect(named('I went hiking last week.')).toBe('2026-11-23..2026-11-29');
    expect(named('Must renew my passport before January.')).toBe('2027-01-01..2027-01-31');
  });

  it('reads a weekday, a date of no year and a day of the month the way the note points', () => {
    // Ahead: an appointment, a plan, a need; back: the past tense; neither: the nearer.
    expect(named('Dentist appointment moved to Wednesday at 10.')).toBe('2026-12-09..2026-12-09');
    expect(named('I had an appointment on Wednesday.')).toBe('2026-12-02..2026-12-02');
    expect(named("Mum's birthday is on the 20th, need to buy a gift.")).toBe('2026-12-20..2026-12-20');
    expect(named('The gym membership renews on 1 March.')).toBe('2027-03-01..2027-03-01');
    expect(named('I was born in March.')).toBe('2026-03-01..2026-03-31');
    expect(named('Last Tuesday I had lunch with Priya.')).toBe('2026-12-01..2026-12-01');
  });

  it('names no day where the words are not one: abbreviations as words, durations, ratios, ordinals of things', () => {
    for (const text of [
      'I like Thai food.',
      'The sun rises in the east.',
      'I sat on the 3rd row.',
      'Room 12/14 is free.',
      'I worked there for 3 years.',
      'The meeting is at 3pm.',
      'Now that I think about it, yes.',
    ])
      expect(named(text), text).toBeNull();
  });

  it('reads the opening of a long text only, so that a write never waits long on it', () => {
    const filler = 'The sky is blue and the sea is calm. '.repeat(30);
    expect(named(`Flight on 14 December. ${filler}`)).toBe('2026-12-14..2026-12-14');
    expect(named(`${filler}Flight on 14 December.`)).toBeNull();
  });

  it('keeps the first day alone where the days named lie more than about a year apart', () => {
    expect(named('We met on 3 May 2019 and married on 9 June 2024.')).toBe('2019-05-03..2019-05-03');
  });
});
