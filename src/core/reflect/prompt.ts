import type { RecalledMemory } from '../recall/types.js';

export const REFLECT_SYSTEM = [
  'You answer questions for an AI agent from its long-term memories.',
  'Use only the numbered memories given; never add facts they do not contain. When they do not answer the question, say so.',
  'Answer with a JSON object: {"reflection": "your answer, a few sentences", "sources": [numbers of the memories you used], "confidence": 0.0-1.0}.',
].join('\n');

const day = (iso: string): string => iso.slice(0, 10);

/** The user message: the memories, numbered, each with its date and type, then the question. */
export function reflectPrompt(query: string, memories: readonly RecalledMemory[]): string {
  const listing = memories
    .map((m, i) => `[${i + 1}] (${day(m.occurred_at ?? m.created_at)}, ${m.type}) ${m.content.replace(/\s+/g, ' ')}`)
    .join('\n');
  return `Memories:\n${listing}\n\nQuestion: ${query}`;
}
