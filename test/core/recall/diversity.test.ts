import { describe, expect, it } from 'vitest';
import { contentStems, diversify, overlap, redundancyOf } from '../../../src/core/recall/diversity.js';

const candidate = (id: string, boosted: number, content: string, seq = 0, context_id = 'c') => ({
  id,
  boosted,
  memory: { content, context_id, seq },
});

describe('contentStems', () => {
  it('drops stopwords and the speaker label of a turn, and stems', () => {
    expect([...contentStems('Melanie: I signed up for pottery classes')].sort()).toEqual(['class', 'pottery', 'sign']);
  });
});

describe('overlap', () => {
  it('is the share of the smaller set held by the larger', () => {
    expect(overlap(new Set(['a', 'b']), new Set(['a', 'b', 'c', 'd']))).toBe(1);
    expect(overlap(new Set(['a', 'b']), new Set(['b', 'c']))).toBe(0.5);
    expect(overlap(new Set(), new Set(['a']))).toBe(0);
  });
});

describe('diversify', () => {
  const ranked = [
    candidate('a', 1.0, 'we went camping in the forest with the kids', 10),
    candidate('b', 0.95, 'camping in the forest with the kids was great', 11),
    candidate('c', 0.9, 'I signed up for a pottery class yesterday', 40),
    candidate('d', 0.5, 'the weather was bad', 70),
  ];

  it('places a candidate that repeats a placed one after one that does not', () => {
    const order = diversify(ranked, {
      places: 3,
      pool: 10,
      penalty: 0.5,
      redundancy: redundancyOf(ranked, 'words', new Set()),
    });
    expect(order.map((c) => c.id)).toEqual(['a', 'c', 'b', 'd']);
  });

  it('by turns: a turn written next to a placed one is redundant, whatever its words', () => {
    const redundancy = redundancyOf(ranked, 'turns', new Set());
    expect(redundancy(1, 0)).toBe(1);
    expect(redundancy(2, 0)).toBe(0);
    const elsewhere = [ranked[0]!, { ...ranked[1]!, memory: { ...ranked[1]!.memory, context_id: 'other' } }];
    expect(redundancyOf(elsewhere, 'turns', new Set())(1, 0)).toBe(0);
  });

  it('by query words: a candidate bringing a query word the placed one lacks is not redundant', () => {
    const query = new Set(['camp', 'pottery']);
    const redundancy = redundancyOf(ranked, 'query', query);
    expect(redundancy(1, 0)).toBe(1);
    expect(redundancy(2, 0)).toBe(0);
  });

  it('keeps the order at penalty 0, and the order past the pool', () => {
    const same = diversify(ranked, { places: 3, pool: 10, penalty: 0, redundancy: () => 1 });
    expect(same.map((c) => c.id)).toEqual(['a', 'b', 'c', 'd']);
    const pooled = diversify(ranked, { places: 2, pool: 2, penalty: 1, redundancy: () => 1 });
    expect(pooled.map((c) => c.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('gives the same head for fewer places when the pool is the same', () => {
    const redundancy = redundancyOf(ranked, 'words', new Set());
    const four = diversify(ranked, { places: 4, pool: 4, penalty: 0.5, redundancy });
    const two = diversify(ranked, { places: 2, pool: 4, penalty: 0.5, redundancy });
    expect(two.slice(0, 2)).toEqual(four.slice(0, 2));
  });
});
