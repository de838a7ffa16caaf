import { LRUCache } from 'lru-cache';
import type { KeywordTerm, Storage } from '../../storage/types.js';
import { type Clock, systemClock } from '../clock.js';

/** How long a count is trusted. */
const COUNT_TTL_MS = 60_000;

/**
 * How long an older count still answers while it is read again (stale while revalidating). A common word's count
 * changes slowly against its size; counting it again in the recall that found it expired put the count on that
 * recall's path every minute (on PostgreSQL 6-7 ms a word in a thousand memories at 100,000, BENCHMARKS.md). Past
 * this it is read before answering, so a workspace that grew since is not judged by a count from long ago.
 */
const STALE_COUNT_MS = 10 * COUNT_TTL_MS;

interface Count {
  value: number;
  /** `Clock` milliseconds. */
  readAt: number;
}

/**
 * The key of one count. The keyword index folds case and a query's terms must all match, in any order, as must any
 * one of a term's alternatives: "Geneva" and "geneva", or the same words asked in another order, are one count.
 */
function countKey(workspaceId: string, cap: number, terms: readonly KeywordTerm[]): string {
  const folded = terms
    .map((term) => (typeof term === 'string' ? term.toLowerCase() : term.map((t) => t.toLowerCase()).sort()))
    .map((term) => JSON.stringify(term))
    .sort();
  return JSON.stringify([workspaceId, cap, folded]);
}

/**
 * Keyword match counts decide whether a term is too common to score (see boundedKeywordSearch) and how much a
 * term weighs (its inverse document frequency): a count a minute old decides as well as a fresh one, and the same
 * words come back query after query. Counting them again cost a recall about 2 ms at 100,000 memories.
 */
export class MatchCountCache {
  private readonly counts = new LRUCache<string, Count>({ max: 50_000 });
  /**
   * Counts being read, shared by whoever asks meanwhile. A recall's keyword, entity and temporal arms ask for the
   * same words at once: on PostgreSQL, where counting a word in a thousand memories visits a thousand rows (about
   * 6 ms at 100,000 memories), a first question counted each of them two or three times over (BENCHMARKS.md).
   */
  private readonly reading = new Map<string, Promise<number>>();
  /**
   * Each workspace's keyword document count. Past its minute the last count still answers while a new one is read
   * (stale while revalidating: counting a large workspace's rows on Postgres takes long, and the weights it sets
   * change slowly); concurrent recalls share one read, and a failed read keeps the last count.
   */
  private readonly documents: LRUCache<string, number>;

  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock = systemClock,
  ) {
    this.documents = new LRUCache<string, number>({
      max: 10_000,
      ttl: COUNT_TTL_MS,
      allowStale: true,
      noDeleteOnFetchRejection: true,
      fetchMethod: (workspaceId) => this.storage.memories.keywordDocumentCount(workspaceId),
    });
  }

  /**
   * As `MemoryStore.keywordMatchCounts`, served from recent counts and counts being read where possible; a count past
   * its minute answers once more while it is read again in the background.
   */
  matchCounts(workspaceId: string, queries: ReadonlyArray<readonly KeywordTerm[]>, cap: number): Promise<number[]> {
    const now = this.clock.now().getTime();
    const keys = queries.map((terms) => countKey(workspaceId, cap, terms));
    const answers: Array<number | Promise<number> | undefined> = [];
    const missing = new Map<string, readonly KeywordTerm[]>();
    const stale = new Map<string, readonly KeywordTerm[]>();
    keys.forEach((key, i) => {
      const known = this.counts.get(key);
      const age = known ? now - known.readAt : Number.POSITIVE_INFINITY;
      if (known && age <= STALE_COUNT_MS) {
        answers.push(known.value);
        if (age > COUNT_TTL_MS && !this.reading.has(key)) stale.set(key, queries[i]!);
        return;
      }
      const reading = this.reading.get(key);
      answers.push(reading);
      if (reading === undefined) missing.set(key, queries[i]!);
    });
    if (missing.size > 0) {
      const read = this.read(workspaceId, missing, cap);
      keys.forEach((key, i) => {
        answers[i] ??= read.get(key);
      });
    }
    // Nobody waits on a refresh; a failed one keeps the old count until it is too old to answer.
    if (stale.size > 0) this.read(workspaceId, stale, cap);
    return Promise.all(answers as Array<number | Promise<number>>);
  }

  /** One statement for every count of `queries` (by key), each shared in `reading` until it is known. */
  private read(
    workspaceId: string,
    queries: ReadonlyMap<string, readonly KeywordTerm[]>,
    cap: number,
  ): Map<string, Promise<number>> {
    const fresh = this.storage.memories.keywordMatchCounts(workspaceId, [...queries.values()], { cap });
    const reads = new Map([...queries.keys()].map((key, n) => [key, fresh.then((found) => found[n]!)]));
    for (const [key, count] of reads) {
      this.reading.set(key, count);
      // A failed read is reported to those waiting on it and leaves nothing behind: the next ask reads again.
      void count
        .then(
          (value) => this.counts.set(key, { value, readAt: this.clock.now().getTime() }),
          () => undefined,
        )
        .finally(() => this.reading.delete(key));
    }
    return reads;
  }

  /** As `MemoryStore.keywordDocumentCount`, served from a recent count (see `documents`). */
  async documentCount(workspaceId: string): Promise<number> {
    return (await this.documents.fetch(workspaceId))!;
  }
}
