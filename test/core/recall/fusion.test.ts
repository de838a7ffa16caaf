import { describe, expect, it } from 'vitest';
import { RRF_K, fuse, fusedWith, interleave, rankByScore, type ArmWeights } from '../../../src/core/recall/fusion.js';

const EQUAL: ArmWeights = { vector: 1, keyword: 1, entity: 1, fact: 1, temporal: 1, graph: 1 };

describe('fuse (weighted reciprocal rank fusion)', () => {
  it('adds weight / (k + rank) per arm, with k = 60 and ranks from 1', () => {
    expect(RRF_K).toBe(60);
    const fused = fuse(
      [
        { arm: 'vector', ids: ['a', 'b'] },
        { arm: 'keyword', ids: ['b'] },
      ],
      EQUAL,
    );
    expect(fused.get('a')!.fused).toBeCloseTo(1 / 61, 12);
    expect(fused.get('b')!.fused).toBeCloseTo(1 / 62 + 1 / 61, 12);
  });

  it("scales each arm's share by its weight", () => {
    const fused = fuse([{ arm: 'keyword', ids: ['a'] }], { ...EQUAL, keyword: 0.5 });
    expect(fused.get('a')!.fused).toBeCloseTo(0.5 / 61, 12);
  });

  it('records which arms found a memory and the scores they reported', () => {
    const fused = fuse(
      [
        { arm: 'vector', ids: ['a', 'b'], scores: new Map([['a', 0.9]]) },
        { arm: 'entity', ids: ['a'] },
      ],
      EQUAL,
    );
    expect([...fused.get('a')!.signals].sort()).toEqual(['entity', 'vector']);
    expect(Object.fromEntries(fused.get('a')!.armScores)).toEqual({ vector: 0.9 });
    expect(fused.get('b')!.armScores.size).toBe(0);
  });

  it('accumulates into an earlier fusion (the graph arm runs after the others)', () => {
    const first = fuse([{ arm: 'vector', ids: ['a'] }], EQUAL);
    const both = fuse([{ arm: 'graph', ids: ['c', 'a'] }], EQUAL, first);
    expect(both).toBe(first);
    expect(both.get('a')!.fused).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect([...both.get('a')!.signals].sort()).toEqual(['graph', 'vector']);
    expect(both.get('c')!.fused).toBeCloseTo(1 / 61, 12);
  });
});

describe('interleave', () => {
  it('orders ids by their summed reciprocal ranks across the lists', () => {
    // c: 1/62 + 1/61 beats a: 1/61 and b: 1/61 + nothing; a and b tie and keep first-seen order.
    expect(
      interleave([
        ['a', 'c'],
        ['c', 'b'],
      ]),
    ).toEqual(['c', 'a', 'b']);
  });

  it('is empty for no lists', () => {
    expect(interleave([])).toEqual([]);
  });
});

describe('rankByScore', () => {
  it('ranks the best scores from 1 and keeps only the first `depth`', () => {
    const ranks = rankByScore(
      new Map([
        ['a', 0.2],
        ['b', 0.9],
        ['c', 0.5],
      ]),
      2,
    );
    expect([...ranks]).toEqual([
      ['b', 1],
      ['c', 2],
    ]);
  });

  it('orders equal scores by id, whatever order they came in', () => {
    const scores = (order: string[]) => new Map(order.map((id) => [id, 0.5]));
    expect([...rankByScore(scores(['z', 'y', 'x']), 3).keys()]).toEqual(['x', 'y', 'z']);
    expect([...rankByScore(scores(['y', 'x', 'z']), 3).keys()]).toEqual(['x', 'y', 'z']);
  });
});

describe('fusedWith', () => {
  it("replaces one arm's share by the share of the rank given, keeping the other arms'", () => {
    const fused = fuse(
      [
        { arm: 'vector', ids: ['a', 'b'] },
        { arm: 'keyword', ids: ['b', 'a'] },
      ],
      EQUAL,
    );
    const swapped = new Map([
      ['b', 1],
      ['a', 2],
    ]);
    expect(fusedWith(fused.get('a')!, EQUAL, 'vector', swapped)).toBeCloseTo(1 / 62 + 1 / 62, 12);
    expect(fusedWith(fused.get('b')!, EQUAL, 'vector', swapped)).toBeCloseTo(1 / 61 + 1 / 61, 12);
  });

  it('gives no share to a candidate the ranks leave out, and one to a candidate the arm had not found', () => {
    const fused = fuse(
      [
        { arm: 'vector', ids: ['a'] },
        { arm: 'keyword', ids: ['c'] },
      ],
      EQUAL,
    );
    const ranks = new Map([['c', 1]]);
    expect(fusedWith(fused.get('a')!, EQUAL, 'vector', ranks)).toBeCloseTo(0, 12);
    expect(fusedWith(fused.get('c')!, { ...EQUAL, vector: 0.5 }, 'vector', ranks)).toBeCloseTo(1 / 61 + 0.5 / 61, 12);
  });
});
