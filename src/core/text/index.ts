import { createHash } from 'node:crypto';
import { keepRecentResults, RECENT_TEXTS } from './recent.js';

/** Whitespace runs collapse to one space and the ends are trimmed: "a  b\n" and "a b" are the same memory. */
export const normaliseContent = (content: string): string => content.replace(/\s+/g, ' ').trim();

/** SHA-256 hex of the normalised content; export/import and the duplicate check compare it. */
export const contentHash = (content: string): string =>
  createHash('sha256').update(normaliseContent(content), 'utf8').digest('hex');

/**
 * ICU segmentation through Intl.Segmenter costs, per segment, the length of the whole text it was given (V8 copies
 * the input into every segment it hands out): quadratic, a minute of blocked event loop and gigabytes of garbage for
 * one 200,000-character memory. So texts are segmented in windows of at most this many characters.
 */
const SEGMENT_WINDOW = 1_024;

const isSpace = (code: number): boolean =>
  code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x2028 || code === 0x2029;

/**
 * `text` in consecutive pieces of at most SEGMENT_WINDOW characters, each cut after the last line break in the window
 * (a sentence and a word end there, so segmenting the pieces gives what segmenting the whole would), else after its
 * last whitespace (a word ends there), else (one unbroken run) at the window, never inside a surrogate pair.
 */
function* windows(text: string): Generator<string> {
  let start = 0;
  while (text.length - start > SEGMENT_WINDOW) {
    const limit = start + SEGMENT_WINDOW;
    let cut = text.lastIndexOf('\n', limit - 1) + 1;
    if (cut <= start) {
      cut = limit;
      while (cut > start && !isSpace(text.charCodeAt(cut - 1))) cut--;
    }
    if (cut <= start) cut = limit - (/[\ud800-\udbff]/.test(text[limit - 1]!) ? 1 : 0);
    yield text.slice(start, cut);
    start = cut;
  }
  yield text.slice(start);
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * Sentences by Unicode rules (ICU), so "Dr. Smith arrived at 3 p.m. today." stays one sentence. A sentence longer than
 * the segmentation window without a line break is cut at whitespace.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const piece of windows(text))
    for (const { segment } of segmenter.segment(piece)) if (segment.trim()) sentences.push(segment.trim());
  return sentences;
}

const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });

/**
 * ICU segmentation is slow next to everything around it, and the same texts are segmented again and again (a new
 * memory against each of its neighbours, a recall's candidates): recent results are kept. Callers get a copy.
 */
const segmentedWords = keepRecentResults(
  (text): readonly string[] => {
    const list: string[] = [];
    for (const piece of windows(text.toLowerCase()))
      for (const { segment, isWordLike } of wordSegmenter.segment(piece)) if (isWordLike) list.push(segment);
    return list;
  },
  {
    ...RECENT_TEXTS,
    // The words count too: about 64 MiB of text and words.
    sizeOf: (found, text) => text.length + found.reduce((sum, word) => sum + word.length + 8, 0) + 1,
  },
);

/** Lower-cased words (letters/digits), punctuation dropped. */
export function words(text: string): string[] {
  return [...segmentedWords(text)];
}

/** Cuts at a word boundary and marks the cut with an ellipsis. */
export function truncateAtWord(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > maxChars * 0.6 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

/** Rough token count (≈ 4 characters per token for English), used for token budgets in responses. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);
