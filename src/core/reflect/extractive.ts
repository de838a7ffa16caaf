import { splitSentences } from '../text/index.js';
import { stem, stemSet } from '../recall/evidence.js';
import type { RecalledMemory } from '../recall/types.js';
import { SAID_OTHERWISE_LATER, saidOtherwiseLater } from './prompt.js';

/** Memories quoted by an extractive reflection. */
export const EXTRACTIVE_MEMORIES = 5;

/** The sentence of a memory that shares most words with the query (its first on a tie). */
function bestSentence(terms: readonly string[], content: string): string {
  const sentences = splitSentences(content);
  let best = sentences[0] ?? content;
  let bestHits = -1;
  for (const sentence of sentences) {
    const present = stemSet(sentence);
    const hits = terms.filter((t) => present.has(stem(t))).length;
    if (hits > bestHits) [best, bestHits] = [sentence, hits];
  }
  return best;
}

/**
 * Reflect without a language model: the most relevant memories quoted, each by its most relevant sentence, under
 * a heading that says plainly that nothing was synthesised. A quote that a later memory contradicts says so: the
 * reader gets no synthesis to tell them which of the two holds.
 */
export function extractiveReflection(
  terms: readonly string[],
  memories: readonly RecalledMemory[],
): { reflection: string; used: RecalledMemory[] } {
  const used = memories.slice(0, EXTRACTIVE_MEMORIES);
  const lines = used.map((m, i) => {
    const about = [
      m.id,
      (m.occurred_at ?? m.created_at).slice(0, 10),
      ...(saidOtherwiseLater(m) ? [SAID_OTHERWISE_LATER] : []),
    ];
    return `${i + 1}. ${bestSentence(terms, m.content)} [${about.join(', ')}]`;
  });
  const reflection = [
    'Extractive summary: no language model is configured, so this is not a synthesised answer but the stored memories most relevant to the question, quoted:',
    ...lines,
  ].join('\n');
  return { reflection, used };
}
