import { splitSentences, truncateAtWord } from '../text/index.js';

export const ABSTRACT_MAX_CHARS = 100;
export const OVERVIEW_MAX_CHARS = 500;

/**
 * Extractive detail tiers, used when no language model is configured (and until it has answered).
 * Leading sentences, not a blind character cut: a memory's first sentence usually states its point.
 */
export function extractiveTiers(content: string): { abstract: string; overview: string } {
  const sentences = splitSentences(content);
  let overview = '';
  for (const sentence of sentences) {
    const next = overview ? `${overview} ${sentence}` : sentence;
    if (next.length > OVERVIEW_MAX_CHARS) break;
    overview = next;
  }
  if (!overview) overview = truncateAtWord(content, OVERVIEW_MAX_CHARS);
  const abstract = truncateAtWord(sentences[0] ?? content, ABSTRACT_MAX_CHARS);
  return { abstract, overview };
}
