import { LRUCache } from 'lru-cache';
import type { KeywordTerm, Storage } from '../../storage/types.js';

/** How long a count is trusted. */
const COUNT_TTL_MS = 60_000;

/**
 * Keyword match counts decide whether a term is too common to score (see boundedKeywordSearch) and how much a
 * term weighs (its inverse document frequency): a count a minute old decides as well as a fresh one, and the same
 * words come back query after query. Counting them again cost a recall about 2 ms at 100,000 memories.
 */
export class MatchCountCache {
  private readonly counts = new LRUCache<string, number>({ max: 50_000, ttl: COUNT_TTL_MS });
  /**
   * Each workspace's keyword document count. Past its minute the last count still answers while a new one is read
   * (stale while revalidating: counting a large workspace's rows on Postgres takes long, and the weights it sets
   * change slowly); concurrent recalls share one read, and a failed read keeps the last count.
   */
  private readonly documents: LRUCache<string, number>;

  constructor(private readonly storage: Storage) {
    this.documents = new LRUCache<string, number>({
      max: 10_000,
      ttl: COUNT_TTL_MS,
      allowStale: true,
      noDeleteOnFetchRejection: true,
      fetchMethod: (workspaceId) => this.storage.memories.keywordDocumentCount(workspaceId),
    });
  }

  /** As `MemoryStore.keywordMatchCounts`, served from recent counts where possible. */
  async matchCounts(
    workspaceId: string,
    queries: ReadonlyArray<readonly KeywordTerm[]>,
    cap: number,
  ): Promise<number[]> {
    const keys = queries.map((terms) => JSON.stringify([workspaceId, cap, terms]));
    const counts = keys.map((key) => this.counts.get(key));
    const missing = counts.flatMap((count, i) => (count === undefined ? [i] : []));
    if (missing.length > 0) {
      const fresh = await this.storage.memories.keywordMatchCounts(
        workspaceId,
        missing.map((i) => queries[i]!),
        { cap },
      );
      missing.forEach((i, n) => {
        counts[i] = fresh[n]!;
        this.counts.set(keys[i]!, fresh[n]!);
      });
    }
    return counts as number[];
  }

  /** As `MemoryStore.keywordDocumentCount`, served from a recent count (see `documents`). */
  async documentCount(workspaceId: string): Promise<number> {
    return (await this.documents.fetch(workspaceId))!;
  }
}
