import type { EmbeddingProvider } from '../../providers/embedding/types.js';
import { cosine } from '../../providers/embedding/vector.js';
import type { Memory, MemoryFilter, ScoredId, Storage } from '../../storage/types.js';
import { words } from '../text/index.js';
import { contentWords } from '../text/stopwords.js';

/** What the context environment asks of the memory store: `load`, rlm's `memory_query` and Python's `recall()`. */
export interface MemorySearchRequest {
  query: string;
  limit: number;
  types?: string[] | undefined;
  /** Every tag must be present. */
  tags?: string[] | undefined;
  /** Cosine similarity to the query below which a memory is left out; none when absent. */
  minRelevance?: number | undefined;
  includeEmbeddings?: boolean | undefined;
}

export type FoundMemory = Memory & { relevance_score: number; embedding?: number[] };

export interface MemorySearchResult {
  /** Best first, at most `limit`. */
  memories: FoundMemory[];
  /** How many memories matched, before the limit. */
  total_available: number;
}

/** A memory search within one workspace; no other workspace is ever searched. */
export type MemorySearch = (workspaceId: string, request: MemorySearchRequest) => Promise<MemorySearchResult>;

/** Candidates per arm, as a multiple of the limit (the reference's overfetch). */
const OVERFETCH = 3;
/** Reciprocal rank fusion constant. */
const RRF_K = 60;

/**
 * INTERIM, until the recall engine (issue 3) is merged and replaces it in `services.ts`: the query's
 * nearest memories and its keyword matches (active memories, with the filters), fused by reciprocal
 * rank; `relevance_score` is the cosine similarity to the query. No intent rules, boosts, graph
 * expansion or access counting.
 */
export function interimMemorySearch(deps: { storage: Storage; queryEmbedder: EmbeddingProvider }): MemorySearch {
  return async (workspaceId, request) => {
    const { storage } = deps;
    const filter: MemoryFilter = { ...(request.types && { types: request.types }), ...(request.tags && { tags: request.tags }) };
    const depth = request.limit * OVERFETCH;
    const [vector] = await deps.queryEmbedder.embed([request.query]);
    const terms = [...new Set(contentWords(words(request.query)))];
    const [nearest, keyword] = await Promise.all([
      storage.memories.vectorSearch(workspaceId, vector!, { k: depth, filter }),
      terms.length > 0 ? storage.memories.keywordSearch(workspaceId, terms, { k: depth, filter }) : Promise.resolve([]),
    ]);

    const similarity = new Map(nearest.map((hit) => [hit.id, hit.score]));
    const keywordOnly = keyword.map((hit) => hit.id).filter((id) => !similarity.has(id));
    for (const [id, embedding] of await storage.memories.getEmbeddings(workspaceId, keywordOnly)) similarity.set(id, cosine(vector!, embedding));

    const floor = request.minRelevance ?? -Infinity;
    const ranked = fuse([nearest, keyword]).filter((id) => (similarity.get(id) ?? 0) >= floor);
    const chosen = ranked.slice(0, request.limit);
    const rows = new Map((await storage.memories.getMany(workspaceId, chosen)).map((memory) => [memory.id, memory]));
    const embeddings = request.includeEmbeddings ? await storage.memories.getEmbeddings(workspaceId, chosen) : undefined;
    const memories = chosen.flatMap((id): FoundMemory[] => {
      const memory = rows.get(id);
      if (!memory) return [];
      const vectorOf = embeddings?.get(id);
      return [{ ...memory, relevance_score: similarity.get(id) ?? 0, ...(vectorOf && { embedding: Array.from(vectorOf) }) }];
    });
    return { memories, total_available: ranked.length };
  };
}

/** Ids ordered by the sum of 1 / (k + rank) over the lists they appear in. */
function fuse(lists: readonly ScoredId[][]): string[] {
  const scores = new Map<string, number>();
  for (const list of lists) list.forEach((hit, index) => scores.set(hit.id, (scores.get(hit.id) ?? 0) + 1 / (RRF_K + index + 1)));
  return [...scores].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}
