import { describe, expect, it } from 'vitest';
import { packText } from '../../../src/core/documents/chunking.js';

const wordsOf = (texts: readonly string[]): string[] => texts.join(' ').split(/\s+/).filter(Boolean);

/** Paragraphs of sentences of words 1–12 letters long, the same for every run (a fixed linear congruential sequence). */
function prose(paragraphs: number): string {
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % n;
  };
  const word = () => 'abcdefghijklmnopqrstuvwxyz'.slice(0, 1 + next(12));
  const sentence = () => `${Array.from({ length: 3 + next(15) }, word).join(' ')}.`;
  return Array.from({ length: paragraphs }, () => Array.from({ length: 1 + next(6) }, sentence).join(' ')).join('\n\n');
}

describe('packText', () => {
  it('returns text that fits as one segment, unchanged', () => {
    expect(packText('A short note.\n\nWith two paragraphs.', 100)).toEqual(['A short note.\n\nWith two paragraphs.']);
  });

  it('packs whole paragraphs, joined by a blank line, as long as they fit', () => {
    expect(packText('First paragraph.\n\nSecond paragraph.\n\nThird one here.', 40)).toEqual([
      'First paragraph.\n\nSecond paragraph.',
      'Third one here.',
    ]);
  });

  it('splits a paragraph that does not fit between its sentences, joining sentences with a space', () => {
    expect(packText('One sentence here. Another sentence there. A third sentence follows.', 30)).toEqual([
      'One sentence here.',
      'Another sentence there.',
      'A third sentence follows.',
    ]);
    expect(packText('One sentence here. Another sentence there. A third sentence follows.', 45)).toEqual([
      'One sentence here. Another sentence there.',
      'A third sentence follows.',
    ]);
  });

  it('cuts a sentence that does not fit between words', () => {
    expect(packText('alpha beta gamma delta epsilon zeta eta theta', 12)).toEqual([
      'alpha beta',
      'gamma delta',
      'epsilon zeta',
      'eta theta',
    ]);
  });

  it('cuts a word only when it alone is longer than a segment', () => {
    expect(packText('abcdefghijklmnopqrstuvwxyz short', 10)).toEqual(['abcdefghij', 'klmnopqrst', 'uvwxyz', 'short']);
  });

  it('never exceeds the size, never cuts a word, and neither repeats nor loses any: segments follow each other without overlap', () => {
    const text = prose(40);
    for (const size of [20, 57, 200, 1_000]) {
      const segments = packText(text, size);
      expect(segments.length).toBeGreaterThan(1);
      for (const segment of segments) expect(segment.length).toBeLessThanOrEqual(size);
      expect(wordsOf(segments)).toEqual(wordsOf([text]));
    }
  });

  it('gives no segment for blank text and drops spaces at line ends', () => {
    expect(packText('  \n\n \t\n  ', 10)).toEqual([]);
    expect(packText('line one  \nline two', 100)).toEqual(['line one\nline two']);
  });
});
