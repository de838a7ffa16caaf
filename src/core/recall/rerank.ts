import { completeJson } from '../../providers/llm/json.js';
import type { LlmProvider } from '../../providers/llm/types.js';
import { truncateAtWord } from '../text/index.js';

export interface RerankCandidate {
  id: string;
  content: string;
}

/** The rerank step of the pipeline: a better (slower) judge of the first candidates' order. */
export interface Reranker {
  readonly name: string;
  /** Ids best first; every given id appears exactly once. */
  rerank(query: string, candidates: readonly RerankCandidate[]): Promise<string[]>;
}

/** How many leading candidates the LLM judges; the rest keep their order after them. */
export const LLM_RERANK_WINDOW = 20;
const CANDIDATE_CHARS = 400;

const SYSTEM = [
  "You rank an AI agent's memories by how useful each is for answering a query.",
  'Answer with a JSON object {"ranking": [n, ...]} listing the numbers of the memories, most useful first.',
  'Judge only by the memory texts given.',
].join('\n');

function parseRanking(value: unknown): number[] {
  const ranking = (value as { ranking?: unknown } | null)?.ranking;
  if (!Array.isArray(ranking) || !ranking.every((n) => Number.isInteger(n)))
    throw new Error('expected {"ranking": [integers]}');
  return ranking as number[];
}

/** Puts the ids in the model's order; ids it left out follow in their original order. */
export function applyRanking(ids: readonly string[], ranking: readonly number[]): string[] {
  const ordered: string[] = [];
  const used = new Set<string>();
  for (const n of ranking) {
    const id = ids[n - 1];
    if (id !== undefined && !used.has(id)) {
      ordered.push(id);
      used.add(id);
    }
  }
  return [...ordered, ...ids.filter((id) => !used.has(id))];
}

export class LlmReranker implements Reranker {
  readonly name = 'llm';

  constructor(private readonly llm: LlmProvider) {}

  async rerank(query: string, candidates: readonly RerankCandidate[]): Promise<string[]> {
    const window = candidates.slice(0, LLM_RERANK_WINDOW);
    const listing = window
      .map((c, i) => `${i + 1}. ${truncateAtWord(c.content.replace(/\s+/g, ' '), CANDIDATE_CHARS)}`)
      .join('\n');
    const { value } = await completeJson(
      this.llm,
      {
        system: SYSTEM,
        messages: [{ role: 'user', content: `Query: ${query}\n\nMemories:\n${listing}` }],
        temperature: 0,
      },
      parseRanking,
    );
    const reordered = applyRanking(
      window.map((c) => c.id),
      value,
    );
    return [...reordered, ...candidates.slice(LLM_RERANK_WINDOW).map((c) => c.id)];
  }
}
