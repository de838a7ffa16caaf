import type { Expression, Kysely, SqlBool } from 'kysely';
import type { Database } from '../database.js';
import type { SqlDialect } from '../migrations/column-types.js';
import type { ScoredId } from '../types.js';
import type { FilterBuilder } from './memory-filter.js';

/** What a memory contributes to the vector and keyword indexes. */
export interface IndexEntry {
  seq: number;
  workspaceId: string;
  content: string;
  embedding: Float32Array;
}

/** A full-text query: any of `terms` (OR) and every one of `required` (AND); a term of several words is a phrase. */
export interface KeywordQuery {
  terms: readonly string[];
  required: readonly string[];
}

/**
 * The only dialect-specific part of storage: how vectors and keywords are stored and searched, and how a
 * JSON array is tested. Everything else is shared Kysely code in `sql/`.
 */
export interface SearchEngine {
  readonly dialect: SqlDialect;
  encodeVector(vector: Float32Array): Buffer | string;
  decodeVector(raw: Buffer | string): Float32Array;
  /** `column` (a JSON array of strings) holds every one of `values`. */
  jsonArrayContainsAll(column: Expression<unknown>, values: readonly string[]): Expression<SqlBool>;
  /** Writes keyword entries inside the caller's transaction (vectors are shared SQL). */
  addKeywordEntries(db: Kysely<Database>, entries: readonly IndexEntry[]): Promise<void>;
  removeKeywordEntries(db: Kysely<Database>, seqs: readonly number[]): Promise<void>;
  /** Drops a whole workspace's keyword entries (before its rows are deleted). */
  removeWorkspaceEntries(db: Kysely<Database>, workspaceId: string): Promise<void>;
  /** Memories that became searchable (created, restored) or changed vector; applied after commit. */
  onVectorsAdded(entries: ReadonlyArray<Pick<IndexEntry, 'seq' | 'workspaceId' | 'embedding'>>): void;
  /** Memories that stopped being searchable (deleted); applied after commit. */
  onVectorsRemoved(workspaceId: string, seqs: readonly number[]): void;
  onWorkspaceDropped(workspaceId: string): void;
  /** `unfiltered`: the filter narrows nothing beyond workspace and active status (an index can answer alone). */
  vectorSearch(db: Kysely<Database>, workspaceId: string, vector: Float32Array, k: number, filter: FilterBuilder, unfiltered: boolean): Promise<ScoredId[]>;
  /** Any of `terms`, and every one of `required`; at least one of the two lists is non-empty. */
  keywordSearch(db: Kysely<Database>, workspaceId: string, query: KeywordQuery, k: number, filter: FilterBuilder): Promise<ScoredId[]>;
  /** Index entries matching every one of `terms` (see MemoryStore.keywordMatchCounts), counted up to `cap + 1`. */
  keywordMatchCount(db: Kysely<Database>, workspaceId: string, terms: readonly string[], cap: number): Promise<number>;
  /** Drops vector indexes built for any dimension (before re-embedding with another model). */
  dropVectorIndexes(db: Kysely<Database>): Promise<void>;
  /** Prepares in-memory indexes from the database; resolves when search runs at full speed. */
  warmUp(db: Kysely<Database>): Promise<void>;
  close(): void;
}
