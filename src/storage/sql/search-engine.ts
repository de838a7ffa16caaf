import type { AliasableExpression, Compilable, Expression, Kysely, RawBuilder, SqlBool } from 'kysely';
import type { Database } from '../database.js';
import type { SqlDialect } from '../migrations/column-types.js';
import type { KeywordTerm, MemoryFilter, VectorHit } from '../types.js';

/** What a memory contributes to the keyword index. */
export interface KeywordEntry {
  seq: number;
  /** The text the keyword index reads: the memory's `keyword_text`, else its content (text/keyword-text.ts). */
  text: string;
}

/** What an active memory contributes to an in-memory vector index. */
export interface VectorEntry {
  seq: number;
  workspaceId: string;
  id: string;
  /** Derived from another memory (a fact, an insight). */
  derived: boolean;
  /** An atomic fact's parent (VectorHit.factOf). */
  factOf: string | null;
  embedding: Float32Array;
}

/**
 * A full-text query: any of `terms` (OR) and every one of `required` (AND); a term of several words is a phrase.
 * `order`: by the engine's relevance score (BM25 / ts_rank), or newest first with no score computed (score 0), for a
 * caller that ranks the matches itself and wants the statement cheap. `weights` (one per term): how rare each term
 * is, for an engine whose own score does not know (Postgres's ts_rank); FTS5's BM25 measures it itself.
 */
export interface KeywordQuery {
  terms: readonly string[];
  required: readonly KeywordTerm[];
  order: 'relevance' | 'newest';
  weights?: readonly number[] | undefined;
}

/** One keyword match: the memory's `seq` and the engine's relevance score, higher is better. */
export interface KeywordRank {
  seq: number;
  score: number;
}

/**
 * The only dialect-specific part of storage: how vectors and keywords are stored and searched, and how a
 * JSON array is tested. Everything else is shared Kysely code in `sql/`.
 */
export interface SearchEngine {
  readonly dialect: SqlDialect;
  encodeVector(vector: Float32Array): Buffer | string;
  /** Reads what `storedVector` selects. */
  decodeVector(raw: Buffer | string): Float32Array;
  /** Selects a stored vector column in the form `decodeVector` reads. */
  storedVector(column: Expression<unknown>): RawBuilder<Buffer | string>;
  /** Cosine distance (0 = same direction) from a stored vector column to the query, for exact scans in SQL. */
  cosineDistance(column: Expression<unknown>, vector: Float32Array): RawBuilder<number>;
  /**
   * `column` is one of `ids`, written with one parameter whatever their number: the statement's text stays the same,
   * so it is prepared once and planned once (a list of placeholders is a new statement for every length).
   */
  anyOf(column: Expression<unknown>, ids: readonly string[]): Expression<SqlBool>;
  /** `column` (a JSON array of strings) holds every one of `values`. */
  jsonArrayContainsAll(column: Expression<unknown>, values: readonly string[]): Expression<SqlBool>;
  /** Writes keyword entries inside the caller's transaction (vectors are shared SQL). */
  addKeywordEntries(db: Kysely<Database>, entries: readonly KeywordEntry[]): Promise<void>;
  removeKeywordEntries(db: Kysely<Database>, seqs: readonly number[]): Promise<void>;
  /**
   * Rewrites the keyword index so that removed entries leave no bytes behind (SQLite's FTS5 only marks them deleted
   * until segments merge); erasure calls it. Costs a pass over the whole index.
   */
  purgeRemovedKeywordEntries(db: Kysely<Database>): Promise<void>;
  /** Drops a whole workspace's keyword entries (before its rows are deleted). */
  removeWorkspaceEntries(db: Kysely<Database>, workspaceId: string): Promise<void>;
  /** Memories that became active (created, restored) or changed vector; applied after commit. */
  onVectorsAdded(entries: readonly VectorEntry[]): void;
  /** Memories that stopped being active (archived, deleted); applied after commit. */
  onVectorsRemoved(workspaceId: string, seqs: readonly number[]): void;
  onWorkspaceDropped(workspaceId: string): void;
  /**
   * Nearest neighbours of each query vector among the memories matching the filter, best first. `bestEffort` (see
   * VectorSearchOptions): the filter's matches among the `bestEffortCandidates(k)` nearest. `minScore` (see
   * VectorSearchOptions): hits below it may be left out.
   */
  vectorSearch(
    db: Kysely<Database>,
    workspaceId: string,
    vectors: readonly Float32Array[],
    k: number,
    filter: MemoryFilter,
    bestEffort: boolean,
    minScore?: number,
  ): Promise<VectorHit[][]>;
  /**
   * The k best matches of any of `terms` and every one of `required` (at least one list is non-empty) among the
   * memories passing the filter, as their `seq` and the engine's score (higher is better), best first. A
   * statement to run with `read`; storage joins what callers need to it.
   */
  keywordRanking(
    db: Kysely<Database>,
    query: KeywordQuery,
    k: number,
    workspaceId: string,
    filter: MemoryFilter,
  ): AliasableExpression<KeywordRank>;
  /** Runs read-only statements where they cost the main thread least; the rows of each, in order. */
  read<R>(db: Kysely<Database>, queries: ReadonlyArray<Compilable<R>>): Promise<R[][]>;
  /** For each non-empty list of terms, the index entries matching every one (see MemoryStore.keywordMatchCounts), counted up to `cap + 1`. */
  keywordMatchCounts(
    db: Kysely<Database>,
    workspaceId: string,
    queries: ReadonlyArray<readonly KeywordTerm[]>,
    cap: number,
  ): Promise<number[]>;
  /**
   * How many memories the keyword index counts matches among (see MemoryStore.keywordDocumentCount): the population
   * `keywordMatchCounts` counts in.
   */
  keywordDocumentCount(db: Kysely<Database>, workspaceId: string): Promise<number>;
  /** Drops vector indexes built for any dimension (before re-embedding with another model). */
  dropVectorIndexes(db: Kysely<Database>): Promise<void>;
  /**
   * Prepares in-memory indexes from the database; resolves when search runs at full speed, with what was indexed
   * (null: the index lives in the database).
   */
  warmUp(db: Kysely<Database>): Promise<WarmUpReport | null>;
  close(): void;
}

/** What an in-memory vector index holds after warm-up, and how much of it came from the last stop's snapshot. */
export interface WarmUpReport {
  vectors: number;
  fromSnapshot: number;
  /** The snapshot was sealed (saved at the last clean close, the database not opened since): no row was checked. */
  sealed: boolean;
}

/** How many of the nearest a best-effort filtered search looks through: a selective filter needs a wide net. */
export const bestEffortCandidates = (k: number): number => Math.max(10 * k, 100);

/** The similarity from which `nearNeighbourBeam`'s narrowest beam was measured to find what 40 finds. */
export const DUPLICATE_SIMILARITY = 0.85;

/**
 * The HNSW beam of a search for near neighbours only (VectorSearchOptions.minScore), on both engines: what is that
 * close is found within a narrow beam, where recall's wider one looks for more distant neighbours too; the closer the
 * neighbours wanted, the narrower. Measured with bench/near-duplicate-beam.ts at 100,000 hash vectors (BENCHMARKS.md,
 * "enrichment's neighbours on the narrow beam" and "the duplicate check on a narrower beam"):
 * - duplicates (the write path, 0.85 by default; 1,200 rewordings, their 3 nearest at 0.85 or above): usearch found
 *   969 of 979 at 16 as at 40, in 47–55 µs a rewording against 102–104; pgvector 973 against 974, 0.7–0.9 ms a
 *   statement against 1.3;
 * - enrichment's neighbours (0.5; stored memories, their 8 nearest at 0.5 or above): at 40 usearch found 3,081 of
 *   3,192 where recall's beam of 96 found 3,108, pgvector 3,049 where its 100 found 3,096 (1.5–1.8 ms a statement
 *   against 2.9–3.0); with the default model at 20,000, usearch 3,187 of 3,200 against 3,197.
 */
export const nearNeighbourBeam = (minScore: number): number => (minScore >= DUPLICATE_SIMILARITY ? 16 : 40);
