import { describe, expect, it } from 'vitest';
import {
  broaderOf,
  inThesaurus,
  laterSensesOf,
  narrowerOf,
  phrasesIn,
  synonymsOf,
  tooGeneral,
  usedAlikeAs,
} from '../../src/core/text/synonyms.js';

describe('synonymsOf', () => {
  it("gives a noun's synonyms in its most frequent sense", () => {
    expect(synonymsOf('couch')).toContain('sofa');
    expect(synonymsOf('purchase')).toContain('buy');
  });

  it('finds an inflected word by its base form', () => {
    expect(synonymsOf('couches')).toContain('sofa');
    expect(synonymsOf('purchased')).toContain('buy');
    // "accused" and "bicycling" are words of the table themselves, with broader words but no synonyms.
    expect(synonymsOf('accused')).toContain('impeach');
    expect(synonymsOf('bicycling')).toContain('bike');
  });

  it('gives nothing for a word the table does not hold', () => {
    expect(synonymsOf('qwzx')).toEqual([]);
    expect(synonymsOf('eriksen')).toEqual([]);
  });
});

describe('broaderOf', () => {
  it('gives what the most frequent sense is a kind of', () => {
    expect(broaderOf('kayak')).toContain('canoe');
    expect(broaderOf('urn')).toContain('vase');
    expect(broaderOf('misplace')).toContain('lose');
  });

  it('finds an inflected word by its base form, and gives nothing for a word the table does not hold', () => {
    expect(broaderOf('kayaks')).toContain('canoe');
    expect(broaderOf('qwzx')).toEqual([]);
  });

  it('gives no word that more than a hundred entries are a kind of', () => {
    // "fly" is a kind of dipteran (the insect, its first sense) and of travel, go, move and locomote (the verb).
    expect(broaderOf('fly')).toEqual(['dipteran', 'dipteron']);
    expect(tooGeneral('move')).toBe(true);
    expect(tooGeneral('canoe')).toBe(false);
    expect(broaderOf('coat')).toEqual(['overgarment']);
  });
});

describe('narrowerOf', () => {
  it('gives kinds of the most frequent sense, the most common first', () => {
    expect(narrowerOf('coat').slice(0, 3)).toEqual(['jacket', 'greatcoat', 'overcoat']);
    expect(narrowerOf('coats')).toContain('jacket');
    expect(narrowerOf('qwzx')).toEqual([]);
  });
});

describe('laterSensesOf', () => {
  it("gives the words of a word's later senses, none of its first sense's lists", () => {
    // "wash" is first the work of washing; in a later verb sense it is a kind of cleaning.
    expect(laterSensesOf('washed')).toContain('clean');
    // A wellington is first a city, third a boot.
    expect(laterSensesOf('wellingtons')).toContain('boot');
    const first = new Set([...synonymsOf('wash'), ...broaderOf('wash'), ...narrowerOf('wash')]);
    expect(first.size).toBeGreaterThan(0);
    expect(laterSensesOf('wash').filter((word) => first.has(word))).toEqual([]);
    expect(laterSensesOf('qwzx')).toEqual([]);
  });
});

describe('usedAlikeAs', () => {
  it('gives the words used most like a word, nearest first, none of the other lists and no form of the word', () => {
    // WordNet relates neither to the word a memory would hold.
    expect(usedAlikeAs('pendant')[0]).toBe('necklace');
    expect(usedAlikeAs('timepiece')).toContain('wristwatch');
    const listed = new Set(['pendant', ...synonymsOf('pendant'), ...broaderOf('pendant'), ...laterSensesOf('pendant')]);
    expect(usedAlikeAs('pendant').filter((word) => listed.has(word) || word.startsWith('pendant'))).toEqual([]);
    expect(usedAlikeAs('qwzx')).toEqual([]);
  });
});

describe('inThesaurus', () => {
  it('holds a word the table has, also by its base form, and not one it lacks', () => {
    expect(['couch', 'couches', 'kayaks', 'try out', 'kept'].map(inThesaurus)).toEqual([true, true, true, true, true]);
    expect(['qwzx', 'eriksen'].map(inThesaurus)).toEqual([false, false]);
  });
});

describe('phrasesIn', () => {
  const words = (text: string) => text.toLowerCase().split(' ');

  it('finds phrases the table holds as one, the first word in any inflection', () => {
    expect(phrasesIn(words('When did Anouk try out a pendant'))).toEqual([{ start: 3, length: 2, phrase: 'try out' }]);
    expect(phrasesIn(words('Who tried out the new bike'))).toEqual([{ start: 1, length: 2, phrase: 'try out' }]);
    // An irregular verb's past: "gave" is looked up as give.
    expect(phrasesIn(words('She gave back the ladder'))).toEqual([{ start: 1, length: 2, phrase: 'give back' }]);
    expect(synonymsOf('try out')).toContain('test');
    expect(broaderOf('looking glass')).toContain('mirror');
  });

  it('takes the longest phrase at a position and lets none overlap', () => {
    const found = phrasesIn(words('we put together a looking glass'));
    expect(found.map(({ phrase }) => phrase)).toEqual(['put together', 'looking glass']);
    expect(phrasesIn(words('nothing here is a phrase'))).toEqual([]);
  });
});
