import { packText } from './chunking.js';

/**
 * Largest passage, in characters: a page is searched by one vector per passage. About three sentences: short
 * enough that one fact is not drowned by the rest of the page, long enough to carry its context (measured in
 * BENCHMARKS.md, "Page search").
 */
export const PASSAGE_CHARS = 500;

/** The passages of a page's transcript, in order: paragraphs, else sentences, else words, packed up to PASSAGE_CHARS. */
export function passagesOf(transcript: string): string[] {
  return packText(transcript, PASSAGE_CHARS);
}
