import { describe, expect, it } from 'vitest';
import {
  aboutAny,
  cosine,
  relevanceOf,
  stem,
  stemSet,
  termCoverage,
  tokens,
} from '../../../src/core/recall/evidence.js';

describe('stem (the light stemmer recall compares words with)', () => {
  it('strips the common inflections and a doubled final consonant', () => {
    expect(['camping', 'researched', 'running', 'planned', 'stories', 'quickly', 'cats'].map(stem)).toEqual([
      'camp',
      'research',
      'run',
      'plan',
      'story',
      'quick',
      'cat',
    ]);
  });

  it('leaves short words, double s and a doubled l or vowel alone, and drops a possessive', () => {
    expect(['bus', 'class', 'tall', 'free', "Caroline's", 'Anouk’s'].map(stem)).toEqual([
      'bus',
      'class',
      'tall',
      'free',
      'Caroline',
      'Anouk',
    ]);
  });
});

describe('tokens and stemSet', () => {
  it('reads lower-cased words and numbers as the keyword index does, keeping an apostrophe inside a word', () => {
    // An apostrophe beyond ASCII is read as ASCII's, as the keyword index reads it (text/keyword-text.ts).
    expect(tokens('Caroline’s café, 2023 — it’s HERE!')).toEqual(["caroline's", 'cafe', '2023', "it's", 'here']);
    expect(tokens('我喝咖啡')).toEqual(['我喝', '喝咖', '咖啡', '我', '喝', '咖', '啡']);
    expect(tokens(' … ')).toEqual([]);
  });

  it('gives each stem once', () => {
    expect(stemSet('The cats ran; the cat runs')).toEqual(new Set(['the', 'cat', 'ran', 'run']));
  });
});

describe('termCoverage', () => {
  it('is the share of the query terms a text holds, in any inflection', () => {
    const coverage = termCoverage(['camping', 'books']);
    expect(coverage('We camped near the book store')).toBe(1);
    expect(coverage('A camp by the lake')).toBe(0.5);
    expect(coverage('Nothing in common')).toBe(0);
  });

  it('counts a term once however often the text repeats it', () => {
    expect(termCoverage(['book', 'lake'])('books, books and more books')).toBe(0.5);
  });

  it("counts a name's words only together, a one-word name as any word", () => {
    const coverage = termCoverage(['sunniva', 'ostrowski', 'umbrella', 'inverness'], new Map(), [
      'Sunniva Ostrowski',
      'Inverness',
    ]);
    expect(coverage('Sunniva Ostrowski repaired an umbrella in Inverness')).toBe(1);
    expect(coverage('Sunniva Merriweather works as a baker in Inverness')).toBe(0.25);
    expect(coverage('Ostrowski said so')).toBe(0);
    // Words of a name that are not terms of the query (a stop word) need not be held.
    expect(termCoverage(['four', 'seasons'], new Map(), ['The Four Seasons'])('four seasons pizza')).toBe(1);
  });

  it('matches a term by a form of several words where the text holds them in a row ("CI" as continuous integration)', () => {
    const coverage = termCoverage(['ci', 'nightly'], new Map([['ci', ['continuous integration']]]));
    expect(coverage('Continuous integration runs a nightly job')).toBe(1);
    expect(coverage('Integration tests run nightly, continuous ones hourly')).toBe(0.5);
  });

  it('matches a term by the other forms it is given (an irregular verb)', () => {
    expect(termCoverage(['buy'])('She bought a bicycle')).toBe(0);
    expect(termCoverage(['buy'], new Map([['buy', ['bought']]]))('She bought a bicycle')).toBe(1);
  });

  it('is 0 for a query without terms', () => {
    expect(termCoverage([])('anything at all')).toBe(0);
  });
});

describe('relevanceOf', () => {
  it('is the larger of meaning and word match, within 0..1', () => {
    expect(relevanceOf(0.2, 0.5)).toBe(0.5);
    expect(relevanceOf(0.9, 0.1)).toBe(0.9);
    expect(relevanceOf(-0.3, 0)).toBe(0);
    expect(relevanceOf(1.2, 0)).toBe(1);
  });
});

describe('cosine', () => {
  it('is the dot product of two unit vectors', () => {
    expect(cosine(new Float32Array([1, 0]), new Float32Array([0.6, 0.8]))).toBeCloseTo(0.6, 6);
    expect(cosine(new Float32Array([0.6, 0.8]), new Float32Array([-0.6, -0.8]))).toBeCloseTo(-1, 6);
  });
});

describe('aboutAny', () => {
  const memory = (content: string, subject_id: string | null = null) => ({ content, subject_id });

  it('holds when an entity is the subject_id, whatever the text says', () => {
    expect(aboutAny(['Gina'])(memory('Won the race on Sunday.', 'gina'))).toBe(true);
  });

  it('holds when the entity opens the text, a name of several words included', () => {
    expect(aboutAny(['Gina'])(memory('Gina: the store is doing great'))).toBe(true);
    expect(aboutAny(['Anouk Holm'])(memory('Yesterday Anouk Holm tested a necklace'))).toBe(true);
  });

  it('holds when the entity opens the text after when or where it happened', () => {
    const holm = aboutAny(['Anouk Holm']);
    expect(holm(memory('On 8 September 2019, Anouk Holm tested a tiny necklace in Montreal.'))).toBe(true);
    expect(holm(memory('In Montreal, Anouk Holm tested a necklace'))).toBe(true);
    expect(holm(memory('On 8 September 2019, Jon told Mia and Sam that Anouk Holm won'))).toBe(false);
    // Only a short phrase is a setting (at most 30 characters before the comma), not a longer opening clause.
    expect(holm(memory('In the very last days of a long summer, Anouk Holm won'))).toBe(false);
  });

  it('does not hold when the entity is named only further into the text, or only in part', () => {
    expect(aboutAny(['Gina'])(memory('Jon told Mia and Sam that Gina won'))).toBe(false);
    expect(aboutAny(['Anouk Holm'])(memory('Anouk tested a necklace'))).toBe(false);
    expect(aboutAny(['Gina'])(memory('Won the race on Sunday.', 'jon'))).toBe(false);
  });

  it('never holds without an entity that has a word', () => {
    expect(aboutAny([])(memory('Gina: hello', 'gina'))).toBe(false);
    expect(aboutAny(['!!!'])(memory('!!! hello'))).toBe(false);
  });
});
