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

export const DETAIL_LEVELS = ['abstract', 'overview', 'full'] as const;
export type DetailLevel = (typeof DETAIL_LEVELS)[number];

/** A memory's text at a detail level: its tier when it has one, else a cut of the content at that tier's size. */
export function textAtDetailLevel(
  memory: { content: string; abstract: string | null; overview: string | null },
  level: DetailLevel,
): string {
  if (level === 'full') return memory.content;
  if (level === 'overview') return memory.overview ?? truncateAtWord(memory.content, OVERVIEW_MAX_CHARS);
  return memory.abstract ?? truncateAtWord(memory.content, ABSTRACT_MAX_CHARS);
}
