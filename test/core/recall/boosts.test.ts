import { describe, expect, it } from 'vitest';
import { backlinkFactor, eventTime, recencyFactor, scopeFactor } from '../../../src/core/recall/boosts.js';

const NOW = new Date('2024-03-15T12:00:00Z');
const WEEK_AGO = '2024-03-08T12:00:00.000Z';
const written = (created_at: string, occurred_at: string | null = null) => ({ created_at, occurred_at });

describe('recencyFactor', () => {
  it('halves the score of a memory a week old at full weight', () => {
    expect(recencyFactor(written(WEEK_AGO), NOW, 1)).toBeCloseTo(0.5, 12);
  });

  it('mixes in the decay by its weight: 1 - w + w * 2^(-age / 1 week)', () => {
    expect(recencyFactor(written(WEEK_AGO), NOW, 0.2)).toBeCloseTo(0.9, 12);
  });

  it('ignores age at weight 0, and a memory from the future counts as new', () => {
    expect(recencyFactor(written('2000-01-01T00:00:00.000Z'), NOW, 0)).toBe(1);
    expect(recencyFactor(written('2030-01-01T00:00:00.000Z'), NOW, 1)).toBe(1);
  });

  it('measures age from when the event happened when that is known, not from when it was written', () => {
    expect(eventTime(written(NOW.toISOString(), WEEK_AGO))).toBe(WEEK_AGO);
    expect(eventTime(written(WEEK_AGO))).toBe(WEEK_AGO);
    expect(recencyFactor(written(NOW.toISOString(), WEEK_AGO), NOW, 1)).toBeCloseTo(0.5, 12);
  });
});

describe('scopeFactor', () => {
  it("boosts the caller's own context x1.5 and the rest of the workspace x1.2", () => {
    expect(scopeFactor({ context_id: 'ctx' }, 'ctx')).toBe(1.5);
    expect(scopeFactor({ context_id: 'other' }, 'ctx')).toBe(1.2);
    expect(scopeFactor({ context_id: 'ctx' }, undefined)).toBe(1.2);
  });
});

describe('backlinkFactor', () => {
  it('grows with the logarithm of the links pointing at a memory, capped at x1.2', () => {
    expect(backlinkFactor(0)).toBe(1);
    expect(backlinkFactor(1)).toBeCloseTo(1.05, 12);
    expect(backlinkFactor(3)).toBeCloseTo(1.1, 12);
    expect(backlinkFactor(7)).toBeCloseTo(1.15, 12);
    expect(backlinkFactor(1_000)).toBe(1.2);
  });
});
