import { describe, expect, it } from 'vitest';
import { inverseDocumentFrequency, namesShare, scoredTerms } from '../../../src/core/recall/keyword-score.js';
import { type ProcessedQuery, processQuery, synonymForms } from '../../../src/core/recall/query.js';
import { heldSynonyms } from '../../../src/core/recall/unmatched.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const DOCUMENTS = 1_000_000;

/** "couch" matches nothing and is searched as "sofa", as `withSynonymsForUnmatched` leaves the query. */
function couchAsked(text: string): ProcessedQuery {
  const query = processQuery(text, NOW);
  return {
    ...query,
    termForms: new Map([...query.termForms, ['couch', ['sofa']]]),
    synonyms: new Map([['couch', ['sofa']]]),
  };
}

/** Keyword evidence with each term matching as many memories as `matchesOf` says (by its first word's stem). */
function evidenceOf(query: ProcessedQuery, matchesOf: (word: string) => number) {
  const terms = scoredTerms(query);
  const matches = terms.map((term) => Math.min(...term.words.map((forms) => matchesOf([...forms][0]!))));
  return { terms, matches, idf: matches.map((m) => inverseDocumentFrequency(m, DOCUMENTS)) };
}

const QUESTION = 'When did Hamid Eriksen misplace a couch?';
// A person among a million memories: the name in a hundred, the synonym in twenty thousand, "misplace" in none.
const rareName = (word: string) => ({ hamid: 100, eriksen: 100, couch: 20_000 })[word] ?? 0;
// A speaker of a conversation: the name in half the memories.
const speaker = (word: string) => (word === 'hamid' || word === 'eriksen' ? DOCUMENTS / 2 : rareName(word));

describe('namesShare', () => {
  it('is most of the weight for a rare name, little for a name in half the workspace, 0 with no name', () => {
    const query = couchAsked(QUESTION);
    expect(namesShare(evidenceOf(query, rareName), query.entities)).toBeGreaterThan(0.5);
    expect(namesShare(evidenceOf(query, speaker), query.entities)).toBeLessThan(0.5);
    const anonymous = couchAsked('When was the couch misplaced?');
    expect(namesShare(evidenceOf(anonymous, rareName), anonymous.entities)).toBe(0);
  });
});

describe('heldSynonyms', () => {
  const found = 'On 10 June 2018, Hamid Eriksen stored an antique sofa in the attic.';
  const short = 'Hamid Eriksen likes chess.';
  const someoneElse = 'Lena Okafor stored a sofa in the attic.';
  const firstNameOnly = 'Hamid Okafor stored a sofa in the attic.';

  it('credits the synonym to a memory of the person asked about, where the name is most of the query', () => {
    const query = couchAsked(QUESTION);
    const held = heldSynonyms(query, evidenceOf(query, rareName));
    expect([found, short, someoneElse, firstNameOnly].map(held)).toEqual([1, 0, 0, 0]);
  });

  it('credits a synonym ending in e held in its past tense ("examine", "examined")', () => {
    const plain = processQuery('When did Hamid Eriksen inspect a couch?', NOW);
    const query = {
      ...plain,
      termForms: new Map([['inspect', synonymForms('examine')]]),
      synonyms: new Map([['inspect', ['examine']]]),
    };
    const held = heldSynonyms(
      query,
      evidenceOf(query, (word) => ({ hamid: 100, eriksen: 100, examin: 20_000 })[word] ?? 0),
    );
    expect(held('On 2 May 2020, Hamid Eriksen examined a green mug.')).toBe(1);
    expect(held('Hamid Eriksen likes chess.')).toBe(0);
  });

  it('credits nothing where the name weighs little, or no synonym was searched', () => {
    const query = couchAsked(QUESTION);
    expect(heldSynonyms(query, evidenceOf(query, speaker))(found)).toBe(0);
    const plain = processQuery(QUESTION, NOW);
    expect(heldSynonyms(plain, evidenceOf(plain, rareName))(found)).toBe(0);
  });
});
