import { completeJson } from '../../providers/llm/json.js';
import type { LlmProvider } from '../../providers/llm/types.js';
import { CATEGORY_GUIDE, EXTRACTION_CATEGORIES, type ExtractionCategory } from './categories.js';

/** One memory a language model proposes; `ref` says which input it came from (an entry key, a message index). */
export interface ExtractedItem {
  content: string;
  category: ExtractionCategory;
  importance: number;
  ref: string | number | null;
}

/** The answer format every extraction prompt asks for. */
export const EXTRACTION_FORMAT = [
  'Answer with a JSON object {"memories": [...]}; each item has',
  '"content": one standalone statement that makes sense without the conversation;',
  `"category": one of ${EXTRACTION_CATEGORIES.join(', ')};`,
  '"importance": 0.0-1.0 (0.9+ identity, major decisions, key solutions; 0.7 useful preferences and events; below 0.5 transient or trivial);',
  '"ref": the key or index of the input it comes from.',
  'Categories:',
  CATEGORY_GUIDE,
].join('\n');

function parseItems(value: unknown): ExtractedItem[] {
  const list = (value as { memories?: unknown })?.memories;
  if (!Array.isArray(list)) throw new Error('expected {"memories": [...]}');
  return list.flatMap((raw): ExtractedItem[] => {
    const item = raw as Record<string, unknown>;
    const content = typeof item.content === 'string' ? item.content.trim() : '';
    const category = EXTRACTION_CATEGORIES.find((c) => c === item.category);
    if (!content || !category) return [];
    const importance =
      typeof item.importance === 'number' && Number.isFinite(item.importance)
        ? Math.min(1, Math.max(0, item.importance))
        : 0.5;
    const ref = typeof item.ref === 'string' || typeof item.ref === 'number' ? item.ref : null;
    return [{ content, category, importance, ref }];
  });
}

/** Asks the model for memories in the shared format; throws (provider_error) when it gives no usable answer. */
export async function extractWithLlm(llm: LlmProvider, system: string, input: string): Promise<ExtractedItem[]> {
  const { value } = await completeJson(
    llm,
    { system: `${system}\n${EXTRACTION_FORMAT}`, messages: [{ role: 'user', content: input }], temperature: 0 },
    parseItems,
  );
  return value;
}
