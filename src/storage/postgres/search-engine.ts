import { endianness } from 'node:os';
import { sql, type Compilable, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { isStorageUnavailable } from '../../errors.js';
import type { Database } from '../database.js';
import { memoryFilter, type FilterBuilder } from '../sql/memory-filter.js';
import {
  bestEffortCandidates,
  nearNeighbourBeam,
  type KeywordQuery,
  type SearchEngine,
  type VectorEntry,
} from '../sql/search-engine.js';
import { FACT_SCOPE, factOf, type KeywordTerm, type MemoryFilter, type VectorHit } from '../types.js';
import type { VectorIndexKind } from '../../config/settings/storage.js';
import { countKeywordMatches } from './match-counts.js';
import type { PlannerStatistics } from './planner-statistics.js';
import { phraseQuery, tsQuery } from './tsquery.js';
import {
  createVectorIndex,
  INDEXED_VECTOR_TYPE,
  indexedEmbedding,
  IvfflatTraining,
  nearNeighbourProbes,
  VECTOR_INDEX_NAME_PATTERNS,
  vectorIndexName,
  vectorRows,
} from './vector-index.js';

/** pgvector's binary form is big endian; Float32Array is in the machine's order. */
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * A vector in pgvector's binary form (its `vector_recv`: the dimensions and an unused word as int16, then each float4,
 * all big endian); the driver sends a Buffer as a binary parameter. The text form `[0.0123…,…]` wrote each float as a
 * 17-digit double: 100 vectors of 256 dimensions took 9 ms to write and the server 9 ms to read, against 0.6 and
 * 1.3 ms in this form (`npx tsx bench/pg-vector-encoding.ts`, BENCHMARKS.md "vectors sent in binary").
 */
export function pgvectorBinary(vector: Float32Array): Buffer {
  const bytes = Buffer.allocUnsafe(4 + 4 * vector.length);
  bytes.writeInt16BE(vector.length, 0);
  bytes.writeInt16BE(0, 2);
  const floats = bytes.subarray(4);
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).copy(floats);
  if (LITTLE_ENDIAN) floats.swap32();
  return bytes;
}

/** A vector from pgvector's binary form (`vector_send`), as `pgvectorBinary` writes it. */
export function fromPgvectorBinary(bytes: Buffer): Float32Array {
  const dimensions = bytes.readInt16BE(0);
  if (bytes.length !== 4 + 4 * dimensions) throw new Error('a pgvector binary value of the wrong length');
  // The floats' bytes copied into the vector's own (aligned) memory, then into the machine's byte order in place.
  const vector = new Float32Array(dimensions);
  const target = Buffer.from(vector.buffer);
  bytes.copy(target, 0, 4);
  if (LITTLE_ENDIAN) target.swap32();
  return vector;
}

/**
 * The relevance of a match: with weights, each term's own ts_rank (length-normalised, 1 + log of the length) times
 * its weight, summed, which like BM25 prefers the rarer words; ts_rank alone knows nothing of how rare a word is,
 * and a memory holding a common word of the query outranked one holding its rarest (BENCHMARKS.md, parity).
 */
function relevance(query: KeywordQuery, tsquery: RawBuilder<unknown>): RawBuilder<number> {
  const { weights } = query;
  if (!weights || query.terms.length === 0) return sql<number>`ts_rank_cd(memories.search_tsv, (${tsquery}))`;
  const parts = query.terms.map(
    (term, i) => sql`${weights[i] ?? 1}::float8 * ts_rank(memories.search_tsv, ${phraseQuery(term)}, 1)`,
  );
  return sql<number>`(${sql.join(parts, sql` + `)})`;
}

/**
 * Postgres: a generated tsvector column (GIN) for keywords and pgvector with an HNSW or IVFFlat index for vectors
 * (MEMD_DATABASE_VECTOR_INDEX; vector-index.ts).
 * Everything lives in the database, so any number of stateless API nodes can share it.
 */
export class PostgresSearchEngine implements SearchEngine {
  readonly dialect = 'postgres' as const;

  private readonly dimensions: number;
  private readonly poolSize: number;
  private readonly vectorIndex: VectorIndexKind;
  private readonly statistics: PlannerStatistics;
  /** With IVFFlat: the training that follows the table's growth. */
  readonly training: IvfflatTraining | null;

  constructor(
    db: Kysely<Database>,
    options: {
      dimensions: number;
      vectorIndex: VectorIndexKind;
      statistics: PlannerStatistics;
      /** Connections of the pool, each opened and warmed at start (`warmUp`). */
      poolSize: number;
    },
  ) {
    this.poolSize = options.poolSize;
    this.dimensions = options.dimensions;
    this.vectorIndex = options.vectorIndex;
    this.statistics = options.statistics;
    this.training = options.vectorIndex === 'ivfflat' ? new IvfflatTraining(db, options.dimensions) : null;
  }

  /** The typed expression the vector index is built on (`indexedEmbedding`); queries must use it to reach it. */
  private get typedEmbedding() {
    return sql.raw(indexedEmbedding(this.dimensions));
  }

  /** A query vector as the index compares it: sent as pgvector's binary `vector`, cast by the server. */
  private queryVector(vector: Float32Array) {
    const dimensions = sql.lit(this.dimensions);
    return sql`${this.encodeVector(vector)}::vector(${dimensions})::${sql.raw(INDEXED_VECTOR_TYPE)}(${dimensions})`;
  }

  private get vectorIndexName(): string {
    return vectorIndexName(this.vectorIndex, this.dimensions);
  }

  encodeVector(vector: Float32Array): Buffer {
    return pgvectorBinary(vector);
  }

  decodeVector(raw: Buffer | string): Float32Array {
    if (typeof raw === 'string') throw new Error('postgres vectors are read in binary (storedVector)');
    return fromPgvectorBinary(raw);
  }

  /**
   * `vector_send`: the binary form as bytea. The text form cost the server a shortest-digits print and the driver a
   * JSON parse of each float: 100 vectors of 256 dimensions read and decoded in 3.6–5.5 ms as text, 1.1–1.7 ms in
   * binary (BENCHMARKS.md, "vectors sent in binary"). Recall reads the vectors of the candidates its vector search did not
   * measure, all of them when the topical query ranks.
   */
  storedVector(column: Expression<unknown>): RawBuilder<Buffer> {
    return sql<Buffer>`vector_send(${column})`;
  }

  cosineDistance(column: Expression<unknown>, vector: Float32Array): RawBuilder<number> {
    return sql<number>`${column} <=> ${this.encodeVector(vector)}::vector(${sql.lit(this.dimensions)})`;
  }

  anyOf(column: Expression<unknown>, ids: readonly string[]): Expression<SqlBool> {
    return sql<SqlBool>`${column} = ANY(${[...ids]}::text[])`;
  }

  jsonArrayContainsAll(column: Expression<unknown>, values: readonly string[]): Expression<SqlBool> {
    return sql<SqlBool>`${column} @> ${JSON.stringify([...new Set(values)])}::jsonb`;
  }

  // The tsvector is a generated column: it follows every insert, update and delete by itself.
  async addKeywordEntries(): Promise<void> {}
  async removeKeywordEntries(): Promise<void> {}
  async purgeRemovedKeywordEntries(): Promise<void> {}
  async removeWorkspaceEntries(): Promise<void> {}
  onVectorsAdded(entries: readonly VectorEntry[]): void {
    this.statistics.noteRowsAdded(entries.length);
    this.training?.noteRowsAdded(entries.length);
  }
  onVectorsRemoved(): void {}
  onWorkspaceDropped(): void {}

  async vectorSearch(
    db: Kysely<Database>,
    workspaceId: string,
    vectors: readonly Float32Array[],
    k: number,
    filter: MemoryFilter,
    bestEffort: boolean,
    minScore?: number,
  ): Promise<VectorHit[][]> {
    const sqlFilter = memoryFilter(this, workspaceId, filter);
    if (minScore !== undefined && !bestEffort && !db.isTransaction)
      return this.nearNeighbours(db, workspaceId, vectors, k, sqlFilter, minScore);
    if (bestEffort)
      return Promise.all(vectors.map((vector) => this.nearestAmongNearest(db, workspaceId, vector, k, sqlFilter)));
    // One vector (recall's dense arm) keeps the plain statement recall's latency was measured with.
    return vectors.length === 1
      ? [await this.nearest(db, workspaceId, vectors[0]!, k, sqlFilter)]
      : this.nearestMany(db, workspaceId, vectors, k, sqlFilter);
  }

  /**
   * A search for near neighbours only (VectorSearchOptions.minScore): every vector's search in one statement, with
   * the narrower beam of `nearNeighbourBeam` for this transaction only. The write path checks each memory of a
   * batch; at the recall beam this check cost a third of PostgreSQL's ingest time (docs/postgres-tuning.md).
   */
  private nearNeighbours(
    db: Kysely<Database>,
    workspaceId: string,
    vectors: readonly Float32Array[],
    k: number,
    filter: FilterBuilder,
    minScore: number,
  ): Promise<VectorHit[][]> {
    return db.transaction().execute(async (tx) => {
      // Both kinds' narrower search, whichever index is built (as each connection's settings), in one round trip:
      // literals only, so the driver sends it as a simple query, where two statements may go.
      await sql`SET LOCAL hnsw.ef_search = ${sql.lit(nearNeighbourBeam(minScore))}; SET LOCAL ivfflat.probes = ${sql.lit(nearNeighbourProbes(minScore))}`.execute(
        tx,
      );
      return this.nearestMany(tx, workspaceId, vectors, k, filter);
    });
  }

  /**
   * The nearest `k` of each vector in one statement: each vector's index search runs under a lateral join, so a
   * batch of a hundred costs one round trip and one plan instead of a hundred. The write path's duplicate checks and
   * enrichment's neighbours searched a vector a statement, each planned (0.3 ms) for 1.2 ms of execution during an
   * ingest; in one statement a batch's acknowledged ingest went about 45 % faster (BENCHMARKS.md, "one statement a batch").
   */
  private async nearestMany(
    db: Kysely<Database>,
    workspaceId: string,
    vectors: readonly Float32Array[],
    k: number,
    filter: FilterBuilder,
  ): Promise<VectorHit[][]> {
    const asked = sql<{ column1: number; column2: string }>`(VALUES ${sql.join(
      vectors.map((vector, i) => sql`(${sql.lit(i)}, ${this.queryVector(vector)})`),
    )})`.as('asked');
    const distance = sql<number>`${this.typedEmbedding} <=> asked.column2`;
    const rows = await db
      .selectFrom(asked)
      .innerJoinLateral(
        () => this.nearestQuery(db, workspaceId, distance, k, filter).as('near'),
        (join) => join.onTrue(),
      )
      .select(['asked.column1 as asked', 'near.id', 'near.source_scope', 'near.source_memory_id', 'near.distance'])
      .execute();
    const found: VectorHit[][] = vectors.map(() => []);
    for (const r of rows) found[r.asked]!.push({ id: r.id, score: 1 - Number(r.distance), factOf: factOf(r) });
    // Iterative index scans return rows in relaxed order: sort exactly here.
    for (const hits of found) hits.sort((a, b) => b.score - a.score);
    return found;
  }

  /**
   * Best effort: the filter's matches among the workspace's nearest vectors. A selective filter (a time window)
   * made the iterative index scan walk up to its tuple limit, 1.2-1.4 s a search at 164k vectors (bench:recall).
   */
  private async nearestAmongNearest(
    db: Kysely<Database>,
    workspaceId: string,
    vector: Float32Array,
    k: number,
    filter: FilterBuilder,
  ): Promise<VectorHit[]> {
    const distance = sql<number>`${this.typedEmbedding} <=> ${this.queryVector(vector)}`;
    const near = db
      .selectFrom('memory_vectors')
      .select(['memory_vectors.seq', distance.as('distance')])
      .where('memory_vectors.workspace_id', '=', workspaceId)
      .orderBy(distance)
      .limit(bestEffortCandidates(k))
      .as('near');
    const rows = await db
      .selectFrom(near)
      .innerJoin('memories', 'memories.seq', 'near.seq')
      .select(['memories.id', 'memories.source_scope', 'memories.source_memory_id', 'near.distance'])
      .where(filter)
      .orderBy('near.distance')
      .limit(k)
      .execute();
    return rows.map((r) => ({ id: r.id, score: 1 - Number(r.distance), factOf: factOf(r) }));
  }

  private async nearest(
    db: Kysely<Database>,
    workspaceId: string,
    vector: Float32Array,
    k: number,
    filter: FilterBuilder,
  ): Promise<VectorHit[]> {
    const distance = sql<number>`${this.typedEmbedding} <=> ${this.queryVector(vector)}`;
    const rows = await this.nearestQuery(db, workspaceId, distance, k, filter).execute();
    // Iterative index scans return rows in relaxed order: sort exactly here.
    return rows
      .map((r) => ({ id: r.id, score: 1 - Number(r.distance), factOf: factOf(r) }))
      .sort((a, b) => b.score - a.score);
  }

  /** The `k` memories of the workspace passing `filter` with the least `distance`, through the HNSW index. */
  private nearestQuery(
    db: Kysely<Database>,
    workspaceId: string,
    distance: RawBuilder<number>,
    k: number,
    filter: FilterBuilder,
  ) {
    return db
      .selectFrom('memory_vectors')
      .innerJoin('memories', 'memories.seq', 'memory_vectors.seq')
      .select(['memories.id', 'memories.source_scope', 'memories.source_memory_id', distance.as('distance')])
      .where('memory_vectors.workspace_id', '=', workspaceId)
      .where(filter)
      .orderBy(distance)
      .limit(k);
  }

  keywordRanking(db: Kysely<Database>, query: KeywordQuery, k: number, workspaceId: string, filter: MemoryFilter) {
    const tsquery = tsQuery(query);
    // Newest first scores none (as SQLite): the caller ranks the matches itself.
    const score = query.order === 'newest' ? sql<number>`0` : relevance(query, tsquery);
    return (
      db
        .selectFrom('memories')
        .select(['memories.seq', score.as('score')])
        .where(sql<SqlBool>`memories.search_tsv @@ (${tsquery})`)
        // Facts stay out of keyword search (FACT_SCOPE); the generated column still indexes them.
        .where(sql<SqlBool>`memories.source_scope IS DISTINCT FROM ${FACT_SCOPE}`)
        .where(memoryFilter(this, workspaceId, filter))
        .orderBy('score', 'desc')
        .orderBy('memories.seq', 'desc')
        .limit(k)
    );
  }

  async read<R>(db: Kysely<Database>, queries: ReadonlyArray<Compilable<R>>): Promise<R[][]> {
    // Every statement goes to the pool; nothing here holds the event loop.
    return Promise.all(queries.map(async (query) => (await db.executeQuery(query.compile())).rows));
  }

  keywordMatchCounts(
    db: Kysely<Database>,
    workspaceId: string,
    queries: ReadonlyArray<readonly KeywordTerm[]>,
    cap: number,
  ): Promise<number[]> {
    return countKeywordMatches(db, workspaceId, queries, cap);
  }

  async keywordDocumentCount(db: Kysely<Database>, workspaceId: string): Promise<number> {
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM memories
      WHERE workspace_id = ${workspaceId} AND status = 'active' AND source_scope IS DISTINCT FROM ${FACT_SCOPE}`.execute(
      db,
    );
    return Number(rows[0]?.n ?? 0);
  }

  async dropVectorIndexes(db: Kysely<Database>): Promise<void> {
    for (const name of await this.vectorIndexes(db)) await sql`DROP INDEX IF EXISTS ${sql.id(name)}`.execute(db);
  }

  /**
   * Builds the configured index if it is missing, then drops any other: an index for another dimension would refuse
   * every insert (its cast fails), and one of the other kind or the full-precision index of earlier versions would
   * double each insert's work. A node of an earlier version or another setting still running beside this one then
   * searches without its index until it is restarted alike. An IVFFlat index is trained on the rows present. Then
   * the pool's connections are opened and warmed (`warmConnections`).
   */
  async warmUp(db: Kysely<Database>): Promise<null> {
    const name = this.vectorIndexName;
    const rows = this.training ? await vectorRows(db) : 0;
    await createVectorIndex(this.vectorIndex, name, this.dimensions, { rows, concurrently: false }).execute(db);
    this.training?.trainedAt(rows);
    for (const stale of await this.vectorIndexes(db))
      if (stale !== name) await sql`DROP INDEX IF EXISTS ${sql.id(stale)}`.execute(db);
    await this.warmConnections(db);
    return null;
  }

  /**
   * Opens every connection of the pool, each reading what a recall reads first: a new server process pays for its
   * start and for loading the tables', indexes' and pgvector's catalogue entries on its first statements, and a
   * node's first recalls, whose statements run at once, paid that on each connection the pool opened for them
   * (BENCHMARKS.md, "a node's first recall on PostgreSQL"). The whole pool, not only the four a first recall opened:
   * later recalls open the others as more of their statements overlap, and docs/deploy.md already sizes the
   * database's `max_connections` for every node's whole pool. Asked all at once, the pool opens a connection for
   * each. One the database refuses (`max_connections` reached) is left cold: the node starts as it did before, and a
   * recall that needs it later gets the database's answer then.
   */
  private async warmConnections(db: Kysely<Database>): Promise<void> {
    const unit = new Float32Array(this.dimensions);
    unit[0] = 1;
    const firstWords = sql`SELECT 1 FROM memories WHERE workspace_id = '' AND search_tsv @@ to_tsquery('english', 'memd')`;
    const nearest = sql`SELECT seq FROM memory_vectors ORDER BY ${this.typedEmbedding} <=> ${this.queryVector(unit)} LIMIT 1`;
    const links = sql`SELECT 1 FROM associations WHERE workspace_id = ''`;
    const workspace = sql`SELECT 1 FROM workspaces WHERE id = ''`;
    const version = sql`SELECT 1 FROM memory_versions WHERE workspace_id = ''`;
    const warmed = await Promise.allSettled(
      Array.from({ length: this.poolSize }, () =>
        sql`SELECT EXISTS (${firstWords}), (${nearest}), EXISTS (${links}), EXISTS (${workspace}), EXISTS (${version})`.execute(
          db,
        ),
      ),
    );
    for (const result of warmed)
      if (result.status === 'rejected' && !isStorageUnavailable(result.reason)) throw result.reason;
  }

  private async vectorIndexes(db: Kysely<Database>): Promise<string[]> {
    const patterns = VECTOR_INDEX_NAME_PATTERNS.map((pattern) => sql`indexname LIKE ${pattern}`);
    const { rows } = await sql<{
      indexname: string;
    }>`SELECT indexname FROM pg_indexes WHERE tablename = 'memory_vectors' AND (${sql.join(patterns, sql` OR `)}) AND schemaname = current_schema()`.execute(
      db,
    );
    return rows.map((r) => r.indexname);
  }

  close(): void {}
}
