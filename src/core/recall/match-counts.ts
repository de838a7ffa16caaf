import { LRUCache } from 'lru-cache';
import type { KeywordTerm, Storage } from '../../storage/types.js';

/** How long a count is trusted. */
const COUNT_TTL_MS = 60_000;

interface DocumentCount {
  count: Promise<number>;
  at: number;
  refreshing: boolean;
}

/**
 * Keyword match counts decide whether a term is too common to score (see boundedKeywordSearch) and how much a
 * term weighs (its inverse document frequency): a count a minute old decides as well as a fresh one, and the same
 * words come back query after query. Counting them again cost a recall about 2 ms at 100,000 memories.
 */
export class MatchCountCache {
  private readonly counts = new LRUCache<string, number>({ max: 50_000, ttl: COUNT_TTL_MS });
  /** Each workspace's keyword document count, when it was read, and whether a newer one is being read. */
  private readonly documents = new LRUCache<string, DocumentCount>({ max: 10_000 });

  constructor(private readonly storage: Storage) {}

  /** As `MemoryStore.keywordMatchCounts`, served from recent counts where possible. */
  async matchCounts(workspaceId: string, queries: ReadonlyArray<readonly KeywordTerm[]>, cap: number): Promise<number[]> {
    const keys = queries.map((terms) => JSON.stringify([workspaceId, cap, terms]));
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

  /**
   * As `MemoryStore.keywordDocumentCount`. Past its minute the last count still answers while a new one is read:
   * counting a large workspace's rows (Postgres) takes long, and the weights it sets change slowly.
   */
  documentCount(workspaceId: string): Promise<number> {
    const known = this.documents.get(workspaceId);
    if (known && (Date.now() - known.at < COUNT_TTL_MS || known.refreshing)) return known.count;
    const count = this.storage.memories.keywordDocumentCount(workspaceId);
    if (!known) {
      const entry: DocumentCount = { count, at: Date.now(), refreshing: false };
      this.documents.set(workspaceId, entry);
      // A failed count is not kept: the next recall asks again.
      count.catch(() => this.documents.get(workspaceId) === entry && this.documents.delete(workspaceId));
      return count;
    }
    known.refreshing = true;
    count.then(
      (n) => this.documents.set(workspaceId, { count: Promise.resolve(n), at: Date.now(), refreshing: false }),
      () => Object.assign(known, { refreshing: false, at: Date.now() }),
    );
    return known.count;
  }
}
