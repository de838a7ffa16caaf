import { describe, expect, it } from 'vitest';
import { contentStems } from '../../../src/core/recall/diversity.js';
import { feedbackTerms, withFeedback } from '../../../src/core/recall/feedback.js';

const candidate = (id: string, boosted: number, content: string) => ({ id, boosted, memory: { content } });

describe('feedbackTerms', () => {
  it('takes words the first texts share beyond the query, rarer words first', () => {
    const texts = [
      'pottery class with the kids',
      'painting class with the kids',
      'kids love the beach',
      'the kids and the dog',
    ].map(contentStems);
    const terms = feedbackTerms(texts, 2, 5, new Set(['activity']));
    expect([...terms.keys()]).toEqual(['class', 'kid']);
    expect(terms.get('class')!).toBeGreaterThan(terms.get('kid')!);
  });

  it('leaves out the query words and a word only one of several first texts holds', () => {
    const texts = ['pottery class', 'pottery painting', 'beach'].map(contentStems);
    expect([...feedbackTerms(texts, 2, 5, new Set(['pottery'])).keys()]).toEqual([]);
  });
});

describe('withFeedback', () => {
  const ranked = [
    candidate('a', 1, 'Melanie: pottery class yesterday'),
    candidate('b', 0.9, 'Melanie: a painting class with my kids'),
    candidate('c', 0.8, 'Melanie: the weather is nice'),
    candidate('d', 0.7, 'Melanie: a swimming class this summer'),
  ];

  it('raises the candidates holding the feedback words, and re-sorts them', () => {
    const fed = withFeedback(ranked, { weight: 0.5, documents: 2, terms: 5, search: false }, new Set(['melanie']));
    expect(fed.map((c) => c.id)).toEqual(['a', 'b', 'd', 'c']);
    expect(fed[2]!.boosted).toBeCloseTo(0.7 * 1.5, 12);
    expect(ranked[3]!.boosted).toBe(0.7); // the input is left as it was
  });

  it('changes nothing at weight 0', () => {
    const fed = withFeedback(ranked, { weight: 0, documents: 2, terms: 5, search: false }, new Set());
    expect(fed).toEqual(ranked);
  });
});
