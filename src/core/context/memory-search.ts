import type { Memory, Storage } from '../../storage/types.js';
import type { RecallService } from '../recall/service.js';

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

/**
 * The context environment's memory search is recall's engine: the same arms, fusion, boosts and graph
 * expansion as POST /v1/memories/recall. A missing `minRelevance` means no floor (the environment loads what
 * ranks best, however weakly it matches); `relevance_score` is recall's.
 */
export function recallMemorySearch(recall: RecallService, storage: Storage): MemorySearch {
  return async (workspaceId, request) => {
    const result = await recall.recall({
      query: request.query,
      workspaceId,
      limit: request.limit,
      types: request.types,
      tags: request.tags,
      minRelevance: request.minRelevance ?? 0,
    });
    const embeddings = request.includeEmbeddings
      ? await storage.memories.getEmbeddings(
          workspaceId,
          result.memories.map((m) => m.id),
        )
      : undefined;
    const memories = result.memories.map((memory): FoundMemory => {
      const vectorOf = embeddings?.get(memory.id);
      return { ...memory, ...(vectorOf && { embedding: Array.from(vectorOf) }) };
    });
    return { memories, total_available: result.matched_count };
  };
}
