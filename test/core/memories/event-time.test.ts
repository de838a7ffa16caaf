import { describe, expect, it } from 'vitest';
import { eventTimeFromMetadata } from '../../../src/core/memories/event-time.js';

const written = new Date('2024-05-08T12:00:00Z');

describe('eventTimeFromMetadata', () => {
  it('reads ISO dates, dates in words and epoch numbers', () => {
    expect(eventTimeFromMetadata({ occurred_at: '2023-05-08T13:56:00Z' }, written)).toBe('2023-05-08T13:56:00.000Z');
    expect(eventTimeFromMetadata({ session_date: '1:56 pm on 8 May, 2023' }, written)).toMatch(/^2023-05-08T/);
    expect(eventTimeFromMetadata({ timestamp: 1_700_000_000 }, written)).toBe('2023-11-14T22:13:20.000Z');
    expect(eventTimeFromMetadata({ timestamp: 1_700_000_000_000 }, written)).toBe('2023-11-14T22:13:20.000Z');
  });

  it('takes a value that is no date ISO can write with four digits of year for no event time, and reads the next key', () => {
    expect(eventTimeFromMetadata({ timestamp: 1e20 }, written)).toBeNull();
    expect(eventTimeFromMetadata({ occurred_at: '99999-01-01' }, written)).toBeNull();
    expect(eventTimeFromMetadata({ occurred_at: '+099999-01-01T00:00:00Z' }, written)).toBeNull();
    expect(eventTimeFromMetadata({ timestamp: -1e15 }, written)).toBeNull();
    expect(eventTimeFromMetadata({ timestamp: 1e20, date: '2022-02-02' }, written)).toBe('2022-02-02T00:00:00.000Z');
  });
});
