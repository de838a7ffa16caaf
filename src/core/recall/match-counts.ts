import { LRUCache } from 'lru-cache';
import type { Storage } from '../../storage/types.js';

/** How long a count is trusted. */
const COUNT_TTL_MS = 60_000;

/**
 * Keyword match counts decide only whether a term is too common to score (see boundedKeywordSearch): a count a
 * minute old decides as well as a fresh one, and the same words come back query after query. Counting them again
 * cost a recall about 2 ms at 100,000 memories.
 */
export class MatchCountCache {
  private readonly counts = new LRUCache<string, number>({ max: 50_000, ttl: COUNT_TTL_MS });

  constructor(private readonly storage: Storage) {}

  /** As `MemoryStore.keywordMatchCounts`, served from recent counts where possible. */
  async matchCounts(workspaceId: string, queries: ReadonlyArray<readonly string[]>, cap: number): Promise<number[]> {
    const keys = queries.map((terms) => [workspaceId, cap, ...terms].join('\u0000'));
    const counts = keys.map((key) => this.counts.get(key));
    const missing = counts.flatMap((count, i) => (count === undefined ? [i] : []));
    if (missing.length > 0) {
      const fresh = await this.storage.memories.keywordMatchCounts(workspaceId, missing.map((i) => queries[i]!), { cap });
      missing.forEach((i, n) => {
        counts[i] = fresh[n]!;
        this.counts.set(keys[i]!, fresh[n]!);
      });
    }
    return counts as number[];
  }
}
