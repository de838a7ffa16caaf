import { completeJson } from '../../providers/llm/json.js';
import type { LlmProvider } from '../../providers/llm/types.js';

export const CONTRADICTION_TYPES = ['negation', 'number_change', 'date_change', 'exclusive_value', 'other'] as const;

export interface LlmVerdict {
  contradicts: boolean;
  type: (typeof CONTRADICTION_TYPES)[number];
  confidence: number;
  explanation: string;
}

const SYSTEM = [
  'You check whether two memories of an AI agent contradict each other: both cannot be true at the same time',
  '(for instance a later statement replaced an earlier one). Paraphrases, additions, and statements about',
  'different things or different times do not contradict. Answer with a JSON object:',
  `{"contradicts": boolean, "type": one of ${CONTRADICTION_TYPES.join(', ')}, "confidence": 0.0-1.0, "explanation": one short sentence}.`,
].join(' ');

function parseVerdict(value: unknown): LlmVerdict {
  const v = value as Record<string, unknown>;
  if (typeof v?.contradicts !== 'boolean') throw new Error('"contradicts" must be a boolean');
  const type = CONTRADICTION_TYPES.find((t) => t === v.type) ?? 'other';
  const confidence =
    typeof v.confidence === 'number' && Number.isFinite(v.confidence) ? Math.min(1, Math.max(0, v.confidence)) : 0.5;
  return {
    contradicts: v.contradicts,
    type,
    confidence,
    explanation: typeof v.explanation === 'string' ? v.explanation.trim() : '',
  };
}

/** The language model's reading of a pair; throws (provider_error) when it gives no usable answer. */
export async function judgeWithLlm(llm: LlmProvider, earlier: string, later: string): Promise<LlmVerdict> {
  const { value } = await completeJson(
    llm,
    {
      system: SYSTEM,
      messages: [{ role: 'user', content: `Earlier memory: ${earlier}\nLater memory: ${later}` }],
      temperature: 0,
    },
    parseVerdict,
  );
  return value;
}
