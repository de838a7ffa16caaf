import { describe, expect, it } from 'vitest';
import { broaderOf, synonymsOf } from '../../src/core/text/synonyms.js';

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
});
