import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** Whitespace runs collapse to one space and the ends are trimmed: "a  b\n" and "a b" are the same memory. */
export const normaliseContent = (content: string): string => content.replace(/\s+/g, ' ').trim();

/** SHA-256 hex of the normalised content; export/import and the duplicate check compare it. */
export const contentHash = (content: string): string => createHash('sha256').update(normaliseContent(content), 'utf8').digest('hex');

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** Sentences by Unicode rules (ICU), so "Dr. Smith arrived at 3 p.m. today." stays one sentence. */
export function splitSentences(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment.trim()).filter((s) => s.length > 0);
}

const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });

/**
 * ICU segmentation is slow next to everything around it, and the same texts are segmented again and again (a new
 * memory against each of its neighbours, a recall's candidates): recent results are kept. Callers get a copy.
 */
const recentWords = new LRUCache<string, readonly string[]>({ max: 4_096 });

/** Lower-cased words (letters/digits), punctuation dropped. */
export function words(text: string): string[] {
  let found = recentWords.get(text);
  if (!found) {
    found = Array.from(wordSegmenter.segment(text.toLowerCase()))
      .filter((s) => s.isWordLike)
      .map((s) => s.segment);
    recentWords.set(text, found);
  }
  return [...found];
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
