import { describe, expect, it } from 'vitest';
import { otherSpellings, spelledAsKnown, spellingsNear } from '../../src/core/text/spelling.js';

describe('spellingsNear', () => {
  it.each([
    ['vacaton', 'vacation'], // a letter left out
    ['fesetival', 'festival'], // one added
    ['dentsit', 'dentist'], // two swapped
    ['birthdya', 'birthday'],
    ['anniversery', 'anniversary'], // one changed
    ['recieve', 'receive'],
    // Adjectives and adverbs are no entry of the thesaurus, but words of its columns.
    ['beatiful', 'beautiful'],
    ['recenlty', 'recently'],
  ])('offers "%s" as "%s"', (typed, meant) => {
    expect(spellingsNear(typed)).toContain(meant);
  });

  it('offers only words of the thesaurus, one slip away', () => {
    const near = spellingsNear('educaton');
    expect(near.length).toBeGreaterThan(0);
    expect(near).toEqual(expect.arrayContaining(['education', 'educator']));
    for (const word of near) expect(Math.abs(word.length - 'educaton'.length)).toBeLessThanOrEqual(1);
  });

  it('leaves short words, words not of letters, and a first letter alone', () => {
    // "crt" is one slip from cart, cat, cut…; "bayak" is one from kayak only through its first letter.
    expect(spellingsNear('cartt')).toContain('cart');
    expect(spellingsNear('crt')).toEqual([]);
    expect(spellingsNear('hotel2')).toEqual([]);
    expect(spellingsNear('bayak')).not.toContain('kayak');
    // The first two letters swapped is a slip like any other pair.
    expect(spellingsNear('ohtel')).toContain('hotel');
  });
});

describe('spelledAsKnown', () => {
  it("knows the thesaurus's entries, their inflections and the words of their columns", () => {
    for (const word of ['festival', 'festivals', 'likely', 'grateful', 'recently'])
      expect(spelledAsKnown(word)).toBe(true);
    for (const word of ['fesetival', 'educaton', 'recenlty']) expect(spelledAsKnown(word)).toBe(false);
  });
});

describe('otherSpellings', () => {
  it.each([
    ['colour', 'color'],
    ['colors', 'colours'],
    ['behaviour', 'behavior'],
    ['organised', 'organized'],
    ['organization', 'organisation'],
    ['analyse', 'analyze'],
    ['centre', 'center'],
    ['catalog', 'catalogue'],
    ['licence', 'license'],
    ['grey', 'gray'],
    ['travelled', 'traveled'],
  ])('spells "%s" as "%s"', (word, other) => {
    expect(otherSpellings(word)).toEqual([other]);
  });

  it('leaves words whose ending only looks British or American', () => {
    for (const word of ['floor', 'flour', 'prize', 'water', 'letter', 'error', 'doctor', 'sense', 'promise', 'blog'])
      expect(otherSpellings(word)).toEqual([]);
  });
});
