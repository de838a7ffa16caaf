import { describe, expect, it } from 'vitest';
import { freshness, staleness, trustScore } from '../../../src/core/recall/annotate.js';
import type { Memory } from '../../../src/storage/types.js';
import { memory as newMemory } from '../../support/records.js';

const NOW = new Date('2024-03-15T12:00:00Z');
const daysAgo = (days: number): string => new Date(NOW.getTime() - days * 86_400_000).toISOString();
const memory = (overrides: Partial<Memory> = {}): Memory =>
  newMemory('ws', 'content', new Float32Array(0), { updated_at: NOW.toISOString(), ...overrides });

describe('freshness', () => {
  it('halves every seven days since the content last changed', () => {
    expect(freshness(memory(), NOW)).toBe(1);
    expect(freshness(memory({ updated_at: daysAgo(7) }), NOW)).toBeCloseTo(0.5, 12);
    expect(freshness(memory({ updated_at: daysAgo(14), created_at: daysAgo(1) }), NOW)).toBeCloseTo(0.25, 12);
  });

  it('adds 0.05 for a read in the last day, capped at 1', () => {
    expect(freshness(memory({ updated_at: daysAgo(7), last_accessed_at: daysAgo(0.5) }), NOW)).toBeCloseTo(0.55, 12);
    expect(freshness(memory({ updated_at: daysAgo(7), last_accessed_at: daysAgo(2) }), NOW)).toBeCloseTo(0.5, 12);
    expect(freshness(memory({ last_accessed_at: daysAgo(0.5) }), NOW)).toBe(1);
  });
});

describe('staleness', () => {
  it('is none under a day, mild under a week, moderate under thirty days, severe after', () => {
    expect([0.5, 1, 6.9, 7, 29.9, 30].map((days) => staleness(memory({ updated_at: daysAgo(days) }), NOW))).toEqual([
      'none',
      'mild',
      'mild',
      'moderate',
      'moderate',
      'severe',
    ]);
  });
});

describe('trustScore', () => {
  it('weighs freshness 0.3, use 0.2, decay 0.2, verification 0.15 and the source 0.15', () => {
    // A fresh, unverified memory a client stated, never read: 0.3 + 0 + 0.2 + 0.15 * 0.5 + 0.15 * 0.8.
    expect(trustScore(memory(), 1)).toBeCloseTo(0.695, 12);
    // Read 5 times, half decayed, pinned, from a peer, half fresh: 0.15 + 0.1 + 0.1 + 0.15 + 0.09.
    expect(
      trustScore(memory({ access_count: 5, decay_factor: 0.5, pinned: true, source_scope: 'peer' }), 0.5),
    ).toBeCloseTo(0.59, 12);
  });

  it('counts metadata.verified like a pin, and a memory derived from another as fully reliable', () => {
    expect(trustScore(memory({ metadata: { verified: true } }), 1)).toBeCloseTo(
      trustScore(memory({ pinned: true }), 1),
      12,
    );
    expect(trustScore(memory({ source_memory_id: 'mem_parent' }), 1) - trustScore(memory(), 1)).toBeCloseTo(
      0.15 * 0.2,
      12,
    );
  });

  it('caps use at ten reads and stays within 0..1', () => {
    const used = (count: number) =>
      trustScore(memory({ access_count: count, pinned: true, source_memory_id: 'mem_parent' }), 1);
    expect(used(10)).toBeCloseTo(1, 12);
    expect(used(100)).toBe(used(10));
  });
});
