import { describe, expect, it } from 'vitest';
import { otherNounForms } from '../../src/core/text/irregular-nouns.js';

describe('otherNounForms', () => {
  it.each([
    ['children', 'child'],
    ['child', 'children'],
    ['people', 'person'],
    ['teeth', 'tooth'],
    ['knives', 'knife'],
    ['crises', 'crisis'],
    ['indices', 'index'],
  ])('relates "%s" and "%s"', (word, other) => {
    expect(otherNounForms(word)).toEqual([other]);
  });

  it('leaves plurals that are as often a verb, and regular nouns', () => {
    for (const word of ['lives', 'leaves', 'data', 'kids', 'dogs']) expect(otherNounForms(word)).toEqual([]);
  });
});
