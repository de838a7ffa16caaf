import { describe, expect, it } from 'vitest';
import { rankingScorer, type RankingFeatures } from '../../../src/core/recall/ranking.js';

const ZERO: RankingFeatures = {
  topical: 0,
  keyword: 0,
  similarity: 0,
  fact: 0,
  coverage: 0,
  synonym: 0,
  keywordContext: 0,
  fused: 0,
  about: 0,
  inWindow: 0,
  complete: 0,
};

describe('rankingScorer', () => {
  it('is the weighted mean of the features', () => {
    const score = rankingScorer({ ...ZERO, keyword: 3, similarity: 1 });
    expect(score({ ...ZERO, keyword: 1, similarity: 0 })).toBeCloseTo(0.75, 12);
    expect(score({ ...ZERO, keyword: 0.5, similarity: 1 })).toBeCloseTo((3 * 0.5 + 1) / 4, 12);
  });

  it('gives 1 when every weighted feature is at its best, and ignores features of weight 0', () => {
    const score = rankingScorer({ ...ZERO, coverage: 2, about: 1 });
    expect(score({ ...ZERO, coverage: 1, about: 1, similarity: 1 })).toBeCloseTo(1, 12);
    expect(score({ ...ZERO, similarity: 1 })).toBe(0);
  });

  it('counts a negative feature (a negative cosine) as 0', () => {
    const score = rankingScorer({ ...ZERO, similarity: 1, coverage: 1 });
    expect(score({ ...ZERO, similarity: -0.8, coverage: 1 })).toBeCloseTo(0.5, 12);
  });

  it('scores everything 0 when every weight is 0', () => {
    expect(rankingScorer(ZERO)({ ...ZERO, keyword: 1, similarity: 1 })).toBe(0);
  });
});
