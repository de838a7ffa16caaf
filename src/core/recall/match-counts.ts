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

/** A count as read: up to `cap`, more reported as `cap + 1` (MemoryStore.keywordMatchCounts). */
interface Count {
  value: number;
  cap: number;
  /** `Clock` milliseconds. */
  readAt: number;
}

/**
 * What a count read up to `read.cap` says of the count up to `cap`: an exact count answers any cap, and "more than
 * `read.cap`" answers every cap up to it. Otherwise nothing (undefined). So the keyword arms' counts up to a thousand
 * are answered by the counts up to a tenth of the workspace that the synonyms for unmatched words read before them (on
 * PostgreSQL each count of a common word visits its rows again: BENCHMARKS.md, "counts kept whatever their cap").
 */
export function countUpTo(read: { value: number; cap: number }, cap: number): number | undefined {
  if (read.value <= read.cap) return Math.min(read.value, cap + 1);
  return cap <= read.cap ? cap + 1 : undefined;
}

/**
 * The key of one count, whatever its cap. The keyword index folds case and a query's terms must all match, in any
 * order, as must any one of a term's alternatives: "Geneva" and "geneva", the same words asked in another order, or
 * a term given as its only alternative (["tent"] and "tent"), are one count.
 */
function countKey(workspaceId: string, terms: readonly KeywordTerm[]): string {
  const folded = terms
    .map((term) => (typeof term === 'string' ? [term] : term))
    .map((forms) => [...new Set(forms.map((form) => form.toLowerCase()))].sort())
    .map((forms) => JSON.stringify(forms.length === 1 ? forms[0] : forms))
    .sort();
  return JSON.stringify([workspaceId, folded]);
}

/** A count being read: its key and the cap it is read up to. */
const readingKey = (key: string, cap: number): string => `${cap} ${key}`;

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
    const keys = queries.map((terms) => countKey(workspaceId, terms));
    const answers: Array<number | Promise<number> | undefined> = [];
    const missing = new Map<string, readonly KeywordTerm[]>();
    const stale = new Map<string, readonly KeywordTerm[]>();
    keys.forEach((key, i) => {
      const known = this.counts.get(key);
      const age = known ? now - known.readAt : Number.POSITIVE_INFINITY;
      const answer = known && age <= STALE_COUNT_MS ? countUpTo(known, cap) : undefined;
      if (answer !== undefined) {
        answers.push(answer);
        if (age > COUNT_TTL_MS && !this.reading.has(readingKey(key, cap))) stale.set(key, queries[i]!);
        return;
      }
      // Only a read up to this cap is shared: one up to a higher cap visits more rows and answers later.
      const reading = this.reading.get(readingKey(key, cap));
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
      this.reading.set(readingKey(key, cap), count);
      // A failed read is reported to those waiting on it and leaves nothing behind: the next ask reads again.
      void count
        .then(
          (value) => this.remember(key, { value, cap, readAt: this.clock.now().getTime() }),
          () => undefined,
        )
        .finally(() => this.reading.delete(readingKey(key, cap)));
    }
    return reads;
  }

  /** Keeps the newer count, unless it says less than one read as recently up to a higher cap. */
  private remember(key: string, count: Count): void {
    const known = this.counts.get(key);
    const saysLess =
      known !== undefined &&
      count.readAt - known.readAt <= COUNT_TTL_MS &&
      countUpTo(count, known.cap) === undefined &&
      countUpTo(known, count.cap) !== undefined;
    if (!saysLess) this.counts.set(key, count);
  }

  /** As `MemoryStore.keywordDocumentCount`, served from a recent count (see `documents`). */
  async documentCount(workspaceId: string): Promise<number> {
    return (await this.documents.fetch(workspaceId))!;
  }
}
