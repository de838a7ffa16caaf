import type { RecalledMemory } from '../recall/types.js';

export const REFLECT_SYSTEM = [
  'You answer questions for an AI agent from its long-term memories.',
  'Use only the numbered memories given; never add facts they do not contain. When they do not answer the question, say so.',
  'A memory marked "said otherwise later" has a later memory, unresolved, that contradicts it: answer with the later one and say what changed.',
  'Answer with a JSON object: {"reflection": "your answer, a few sentences", "sources": [numbers of the memories you used], "confidence": 0.0-1.0}.',
].join('\n');

const day = (iso: string): string => iso.slice(0, 10);

/** Said of a memory that a later one contradicts (the recall signal `contradicted`), to a model and to a reader. */
export const SAID_OTHERWISE_LATER = 'said otherwise later';

/** The user message: the memories, numbered, each with its date and type (and whether it was said otherwise later), then the question. */
export function reflectPrompt(query: string, memories: readonly RecalledMemory[]): string {
  const listing = memories
    .map((m, i) => {
      const about = [
        day(m.occurred_at ?? m.created_at),
        m.type,
        ...(saidOtherwiseLater(m) ? [SAID_OTHERWISE_LATER] : []),
      ];
      return `[${i + 1}] (${about.join(', ')}) ${m.content.replace(/\s+/g, ' ')}`;
    })
    .join('\n');
  return `Memories:\n${listing}\n\nQuestion: ${query}`;
}

/** A later memory contradicts it and the pair is unresolved (recall places the later one first). */
export const saidOtherwiseLater = (memory: RecalledMemory): boolean => memory.match_signals.includes('contradicted');
