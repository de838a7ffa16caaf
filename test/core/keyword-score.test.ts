import { describe, expect, it } from 'vitest';
import { bm25Scores, inverseDocumentFrequency, scoredTerms } from '../../src/core/recall/keyword-score.js';
import { processQuery } from '../../src/core/recall/query.js';

const NOW = new Date('2026-01-01T00:00:00Z');

function scores(query: string, texts: string[], matches?: number[]): number[] {
  const terms = scoredTerms(processQuery(query, NOW));
  const idf = terms.map((_, i) => inverseDocumentFrequency(matches?.[i] ?? 10, 1_000));
  return bm25Scores(terms, idf, texts);
}

describe('keyword evidence (BM25 over a memory’s own words)', () => {
  // Not above every memory missing one word: a shorter one can outscore it (length normalisation), which is why
  // ranking adds the `complete` feature (test/conformance/recall-at-scale.test.ts).
  it('a memory holding every word of the query scores above one holding only the name asked about', () => {
    const [all, some, none] = scores('Anouk Holm necklace Montreal', [
      'On 8 September 2019, Anouk Holm tested a tiny necklace in the backyard in Montreal.',
      'Anouk Holm works as an electrician in Almaty.',
      'Bruno Abara likes chess.',
    ]);
    expect(all).toBeGreaterThan(some!);
    expect(some).toBeGreaterThan(0);
    expect(none).toBe(0);
  });

  it('matches words by their Porter stems, as the keyword index does, and irregular verbs by their other forms', () => {
    const [derived, irregular] = scores('When did Caroline buy research books?', [
      'Caroline, a researcher, bought two books.',
      'Caroline bought books.',
    ]);
    const [without] = scores('When did Caroline buy research books?', ['Caroline read two books.']);
    expect(derived).toBeGreaterThan(irregular!);
    expect(irregular).toBeGreaterThan(without!);
  });

  it('counts a possessive as the word, as the keyword index does ("Priya\'s flight" holds Priya)', () => {
    const [possessive, plain, other] = scores('When is Priya flying?', [
      "Priya's flight to Toronto leaves on 12 June.",
      'Priya flight to Toronto leaves on 12 June.',
      "Sam's flight to Toronto leaves on 12 June.",
    ]);
    expect(possessive).toBeGreaterThan(0);
    expect(possessive).toBe(plain);
    expect(other).toBe(0);
  });

  it('counts a form of several words where the memory holds its words in a row ("CI" as continuous integration)', () => {
    const query = processQuery('What runs CI?', NOW);
    query.termForms.set('ci', ['continuous integration']);
    const terms = scoredTerms(query);
    const [spelled, apart, none] = bm25Scores(
      terms,
      terms.map(() => 1),
      ['Continuous integration builds every branch.', 'Integration tests are continuous.', 'Nothing here.'],
    );
    expect(spelled).toBeGreaterThan(0);
    expect(apart).toBe(0);
    expect(none).toBe(0);
  });

  it('adjacent query words count again as a phrase when they are adjacent in the memory', () => {
    const [together, apart] = scores('support group', ['She joined a support group.', 'The group needs support.']);
    expect(together).toBeGreaterThan(apart!);
  });

  it('a rare word weighs more than a common one', () => {
    const [rare, common] = scores('heron lake', ['A heron flew by.', 'The lake was cold.'], [2, 900]);
    expect(rare).toBeGreaterThan(common!);
    expect(inverseDocumentFrequency(1_001, 500)).toBeGreaterThan(0);
  });
});
