import { describe, expect, it } from 'vitest';
import { numberForms } from '../../src/core/text/number-words.js';

describe('numberForms', () => {
  it.each([
    ['three', '3'],
    ['3', 'three'],
    ['twelve', '12'],
    ['twenty', '20'],
    ['90', 'ninety'],
    ['first', '1st'],
    ['2nd', 'second'],
    ['third', '3rd'],
    ['11th', 'eleventh'],
    ['twelfth', '12th'],
    ['13th', 'thirteenth'],
    ['20th', 'twentieth'],
  ])('relates "%s" and "%s"', (word, other) => {
    expect(numberForms(word)).toEqual([other]);
  });

  it('offers nothing for "one", numbers of two words, or any other word', () => {
    expect(numberForms('one')).toEqual([]);
    expect(numberForms('1')).toEqual([]);
    expect(numberForms('21st')).toEqual([]);
    expect(numberForms('21')).toEqual([]);
    expect(numberForms('kids')).toEqual([]);
  });
});
