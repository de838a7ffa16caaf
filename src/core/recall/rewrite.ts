import { completeJson } from '../../providers/llm/json.js';
import type { LlmProvider } from '../../providers/llm/types.js';
import { truncateAtWord } from '../text/index.js';
import type { ConversationTurn } from './types.js';

const TURNS = 10;
const TURN_CHARS = 600;

const SYSTEM = [
  'You turn the last question of a conversation into a standalone search query for a memory store.',
  'Resolve pronouns and references ("it", "that project", "she") from the conversation; keep names, dates and exact terms.',
  'Answer with a JSON object {"query": "..."}; do not answer the question.',
].join('\n');

function parseQuery(value: unknown): string {
  const query = (value as { query?: unknown } | null)?.query;
  if (typeof query !== 'string' || !query.trim()) throw new Error('expected {"query": "non-empty text"}');
  return query.trim();
}

/** The query made standalone with the recent conversation (`context`), by the configured language model. */
export async function rewriteQuery(
  llm: LlmProvider,
  query: string,
  context: readonly ConversationTurn[],
): Promise<string> {
  const conversation = context
    .slice(-TURNS)
    .map((turn) => `${turn.role}: ${truncateAtWord(turn.content.replace(/\s+/g, ' '), TURN_CHARS)}`)
    .join('\n');
  const { value } = await completeJson(
    llm,
    {
      system: SYSTEM,
      messages: [{ role: 'user', content: `Conversation:\n${conversation}\n\nQuestion: ${query}` }],
      temperature: 0,
    },
    parseQuery,
  );
  return value;
}
