import { describe, expect, it } from 'vitest';
import { splitSentences, words } from '../../src/core/text/index.js';

const wholeWords = (text: string) =>
  Array.from(new Intl.Segmenter('en', { granularity: 'word' }).segment(text.toLowerCase()))
    .filter((s) => s.isWordLike)
    .map((s) => s.segment);
const wholeSentences = (text: string) =>
  Array.from(new Intl.Segmenter('en', { granularity: 'sentence' }).segment(text), (s) => s.segment.trim()).filter(
    (s) => s !== '',
  );

describe('segmentation of long texts', () => {
  const prose = Array.from(
    { length: 200 },
    (_, i) =>
      `Dr. Smith arrived at 3 p.m. on day ${i}; the café's naïve co-op met “inside”.${i % 7 === 0 ? '\n\n' : ' '}`,
  ).join('');

  it('words and sentences of a long text are those of segmenting it whole', () => {
    expect(prose.length).toBeGreaterThan(10_000);
    expect(words(prose)).toEqual(wholeWords(prose));
    // Pieces end at line breaks, where a sentence ends anyway.
    expect(splitSentences(prose)).toEqual(wholeSentences(prose));
  });

  it('a 200,000-character text of tiny segments is segmented whole, words and sentences alike', () => {
    // Segmenting these whole takes minutes and gigabytes (each segment copies the input).
    expect(splitSentences('a\n'.repeat(100_000))).toHaveLength(100_000);
    expect(words('x-'.repeat(100_000))).toHaveLength(100_000);
    expect(words('😀 ab'.repeat(50_000))).toHaveLength(50_000);
  });

  it('an unbroken run longer than a window is cut, never inside a surrogate pair', () => {
    const run = '𝔸'.repeat(3_000);
    expect(words(`${run} end`).at(-1)).toBe('end');
    expect(splitSentences(run).join('')).toBe(run);
  });
});
