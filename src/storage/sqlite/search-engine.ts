import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import {
  expressionBuilder,
  sql,
  type Compilable,
  type Expression,
  type Kysely,
  type RawBuilder,
  type SqlBool,
} from 'kysely';
import type { Database } from '../database.js';
import { keywordPhrase } from '../../text/keyword-text.js';
import { memoryFilter, type FilterBuilder } from '../sql/memory-filter.js';
import {
  bestEffortCandidates,
  nearNeighbourBeam,
  type KeywordEntry,
  type KeywordQuery,
  type KeywordRank,
  type SearchEngine,
  type VectorEntry,
  type WarmUpReport,
} from '../sql/search-engine.js';
import { FACT_SCOPE, factOf, type KeywordTerm, type MemoryFilter, type VectorHit } from '../types.js';
import { limitExpression } from './limit-expression.js';
import type { SqliteReader } from './reader.js';
import type { WorkspaceVectorIndexes } from './vector-index.js';
import type { IndexedMemory } from './workspace-index.js';
import { removeSnapshot } from './vector-snapshot.js';

const FTS_CHUNK = 500;

/** The memories of every workspace but one: two ranges of the (workspace_id, …) indexes, on either side of it. */
const othersMemories = (workspaceId: string): RawBuilder<{ seq: number }> =>
  sql`SELECT seq FROM memories WHERE workspace_id < ${workspaceId}
    UNION ALL SELECT seq FROM memories WHERE workspace_id > ${workspaceId}`;

/** True where no other workspace has a memory: every entry of the shared keyword index is the workspace's. */
const aloneInIndex = (workspaceId: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`NOT EXISTS (SELECT 1 FROM memories WHERE workspace_id < ${workspaceId})
    AND NOT EXISTS (SELECT 1 FROM memories WHERE workspace_id > ${workspaceId})`;

/**
 * A workspace's keyword matches are counted either as the whole index's less the other workspaces', each of theirs
 * checked by rowid (7-17 µs a memory on the kept million), or through a join from every match to its row (about
 * 2.7 µs a match, and it stops once the workspace's count passes the cap). The first where the index's count, up to
 * the cap, is at least this many times the others' memories: a workspace alone is the index's count as it stands,
 * and "necklace" (12,015 matches) beside 301 memories of another workspace 2.7–22.4 ms against 40–303 ms by the join
 * (BENCHMARKS.md, "keyword counts per workspace"); the join where the word is rarer.
 */
const SUBTRACTED_PER_OTHER = 5;

/** Past this many memories of other workspaces, the join alone (counting them is part of every count statement). */
const MOST_SUBTRACTED = 2_000;

const WARM_UP_PAGE = 2_000;

const ftsString = (term: string): string => `"${keywordPhrase(term).replaceAll('"', '""')}"`;

const ftsAnyOf = (terms: readonly string[]): string =>
  terms.length === 1 ? ftsString(terms[0]!) : `(${terms.map(ftsString).join(' OR ')})`;

/**
 * FTS5 query syntax: each term a quoted string (quotes doubled; several words make a phrase); required terms ANDed,
 * a required term's alternatives ORed.
 */
export function ftsMatchExpression(query: Pick<KeywordQuery, 'terms' | 'required'>): string {
  const parts = query.required.map((term) => (typeof term === 'string' ? ftsString(term) : ftsAnyOf(term)));
  if (query.terms.length > 0) parts.push(ftsAnyOf(query.terms));
  return parts.join(' AND ');
}

/** SQLite's variable-length integer (as FTS5 writes them): 7 bits a byte, high bit set on all but the last of 9. */
export function readVarint(bytes: Uint8Array): number {
  let value = 0;
  for (let i = 0; i < Math.min(bytes.length, 9); i++) {
    const byte = bytes[i]!;
    if (i === 8) return value * 256 + byte;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return value;
  }
  return value;
}

/**
 * The filters the in-memory index answers alone: active memories (all it holds), originals vs derived, excluded
 * ids. Anything else goes through SQL. Null when SQL is needed.
 */
function indexPredicate(filter: MemoryFilter): ((m: IndexedMemory) => boolean) | null {
  const { statuses, derived, excludeIds } = filter;
  if (statuses && !(statuses.length === 1 && statuses[0] === 'active')) return null;
  if (narrowsBeyond(filter, ['statuses', 'derived', 'excludeIds'])) return null;
  const excluded = new Set(excludeIds ?? []);
  return (m) => (derived === undefined || m.derived === derived) && !excluded.has(m.id);
}

/** Whether the filter narrows by any field but `fields`. An empty list narrows nothing, except an explicit `ids` or `sourceScopes` (nothing matches). */
function narrowsBeyond(filter: MemoryFilter, fields: ReadonlyArray<keyof MemoryFilter>): boolean {
  return Object.entries(filter).some(([field, value]) => {
    if (value === undefined || fields.includes(field as keyof MemoryFilter)) return false;
    return !Array.isArray(value) || value.length > 0 || field === 'ids' || field === 'sourceScopes';
  });
}

function byWorkspace<T extends { workspaceId: string }>(entries: readonly T[]): Map<string, T[]> {
  const lists = new Map<string, T[]>();
  for (const entry of entries) {
    const list = lists.get(entry.workspaceId) ?? [];
    list.push(entry);
    lists.set(entry.workspaceId, list);
  }
  return lists;
}

/**
 * SQLite: FTS5 (BM25) for keywords; vectors as float32 BLOBs in the database and, for active memories, in an
 * in-memory HNSW per workspace. Common filters are answered by the index alone; other filters check the index's
 * candidates in SQL, and fall back to an exact sqlite-vec scan when the index cannot give k matches.
 */
export class SqliteSearchEngine implements SearchEngine {
  readonly dialect = 'sqlite' as const;
  private warm = false;
  /** What the constructor loaded from a sealed snapshot, for warmUp; null: warmUp loads. */
  private preloaded: 'sealed' | 'unverified' | 'none' | null = null;
  /** The seal of the snapshot the last close saved, for the database to keep (open.ts); null: none saved. */
  savedSeal: string | null = null;

  constructor(
    private readonly vectors: WorkspaceVectorIndexes,
    /** Below this many vectors an exact scan is cheap and exact; above it the HNSW answers. */
    private readonly annMinSize: number,
    /** Keyword searches run on this reader thread when there is one (a database file, not `:memory:`). */
    private readonly reader: SqliteReader | null = null,
    /** Where the HNSW graphs are saved at close and loaded from at start (vector-snapshot.ts); null: never saved. */
    private readonly snapshotDir: string | null = null,
    /**
     * The seal the database held when opened (open.ts), or null. A snapshot with this seal is loaded here, before
     * anything can write, and trusted as it is.
     */
    sealed: string | null = null,
    /** Told how many entries each write added to or removed from the keyword index (open.ts merges it after bursts). */
    private readonly keywordIndexChanged: (count: number) => void = () => {},
  ) {
    if (snapshotDir !== null && sealed !== null) this.preloaded = vectors.load(snapshotDir, sealed);
  }

  /**
   * Runs reads on the reader thread, or here inside a transaction (whose uncommitted writes only this
   * connection sees) and when there is no reader.
   */
  async read<R>(db: Kysely<Database>, queries: ReadonlyArray<Compilable<R>>): Promise<R[][]> {
    const compiled = queries.map((q) => q.compile());
    if (this.reader && !db.isTransaction) return (await this.reader.allOf(compiled)) as R[][];
    const rows: R[][] = [];
    for (const query of compiled) rows.push((await db.executeQuery(query)).rows);
    return rows;
  }

  encodeVector(vector: Float32Array): Buffer {
    return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
  }

  decodeVector(raw: Buffer | string): Float32Array {
    if (typeof raw === 'string') throw new Error('sqlite vectors are BLOBs');
    // Copy: the driver's buffer may not be 4-byte aligned.
    const vector = new Float32Array(raw.byteLength / 4);
    new Uint8Array(vector.buffer).set(raw);
    return vector;
  }

  storedVector(column: Expression<unknown>): RawBuilder<Buffer> {
    return sql<Buffer>`${column}`;
  }

  cosineDistance(column: Expression<unknown>, vector: Float32Array): RawBuilder<number> {
    return sql<number>`vec_distance_cosine(${column}, ${this.encodeVector(vector)})`;
  }

  anyOf(column: Expression<unknown>, ids: readonly string[]): Expression<SqlBool> {
    return sql<SqlBool>`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
  }

  jsonArrayContainsAll(column: Expression<unknown>, values: readonly string[]): Expression<SqlBool> {
    const distinct = [...new Set(values)];
    return sql<SqlBool>`(SELECT count(DISTINCT j.value) FROM json_each(${column}) AS j WHERE j.value IN (${sql.join(distinct)})) = ${distinct.length}`;
  }

  async addKeywordEntries(db: Kysely<Database>, entries: readonly KeywordEntry[]): Promise<void> {
    for (let start = 0; start < entries.length; start += FTS_CHUNK) {
      const rows = entries.slice(start, start + FTS_CHUNK).map((e) => sql`(${e.seq}, ${e.text})`);
      await sql`INSERT INTO memory_fts (rowid, content) VALUES ${sql.join(rows)}`.execute(db);
    }
    this.keywordIndexChanged(entries.length);
  }

  async removeKeywordEntries(db: Kysely<Database>, seqs: readonly number[]): Promise<void> {
    for (let start = 0; start < seqs.length; start += FTS_CHUNK) {
      await sql`DELETE FROM memory_fts WHERE rowid IN (${sql.join(seqs.slice(start, start + FTS_CHUNK))})`.execute(db);
    }
    this.keywordIndexChanged(seqs.length);
  }

  async purgeRemovedKeywordEntries(db: Kysely<Database>): Promise<void> {
    await sql`INSERT INTO memory_fts (memory_fts) VALUES ('optimize')`.execute(db);
  }

  async removeWorkspaceEntries(db: Kysely<Database>, workspaceId: string): Promise<void> {
    await sql`DELETE FROM memory_fts WHERE rowid IN (SELECT seq FROM memories WHERE workspace_id = ${workspaceId})`.execute(
      db,
    );
  }

  onVectorsAdded(entries: readonly VectorEntry[]): void {
    for (const [workspaceId, list] of byWorkspace(entries)) this.vectors.upsert(workspaceId, list);
  }

  onVectorsRemoved(workspaceId: string, seqs: readonly number[]): void {
    this.vectors.remove(workspaceId, seqs);
  }

  onWorkspaceDropped(workspaceId: string): void {
    this.vectors.drop(workspaceId);
  }

  async vectorSearch(
    db: Kysely<Database>,
    workspaceId: string,
    vectors: readonly Float32Array[],
    k: number,
    filter: MemoryFilter,
    bestEffort: boolean,
    minScore?: number,
  ): Promise<VectorHit[][]> {
    const indexed = this.warm && this.vectors.size(workspaceId) >= this.annMinSize;
    const accept = indexed ? indexPredicate(filter) : null;
    // The HNSW search holds this thread for a millisecond or more: statements already bound for the reader thread
    // (this recall's keyword searches) are sent first, so both run at once.
    if (indexed && this.reader) await yieldToEventLoop();
    if (accept) {
      return this.vectors
        .search(workspaceId, vectors, k, accept, minScore === undefined ? undefined : nearNeighbourBeam(minScore))
        .map((found) =>
          found.map(({ memory, similarity }) => ({ id: memory.id, score: similarity, factOf: memory.factOf })),
        );
    }
    const sqlFilter = memoryFilter(this, workspaceId, filter);
    const onlyActive =
      filter.statuses === undefined || (filter.statuses.length === 1 && filter.statuses[0] === 'active');
    return Promise.all(
      vectors.map(async (vector) => {
        const query = this.encodeVector(vector);
        if (indexed && onlyActive) {
          // Index candidates checked against the filter in SQL.
          const wanted = bestEffortCandidates(k);
          const [candidates] = this.vectors.search(workspaceId, [vector], wanted);
          const matching = await this.exactScan(
            db,
            query,
            k,
            sqlFilter,
            candidates!.map((c) => c.seq),
          );
          // Fewer candidates than asked for means the index had nothing more to give.
          if (bestEffort || matching.length >= k || candidates!.length < wanted) return matching;
        }
        return this.exactScan(db, query, k, sqlFilter, null);
      }),
    );
  }

  private async exactScan(
    db: Kysely<Database>,
    query: Buffer,
    k: number,
    filter: FilterBuilder,
    seqs: number[] | null,
  ): Promise<VectorHit[]> {
    if (seqs?.length === 0) return [];
    let q = db
      .selectFrom('memories')
      .innerJoin('memory_vectors', 'memory_vectors.seq', 'memories.seq')
      .select([
        'memories.id',
        'memories.source_scope',
        'memories.source_memory_id',
        sql<number>`vec_distance_cosine(memory_vectors.embedding, ${query})`.as('distance'),
      ])
      .where(filter);
    if (seqs) q = q.where('memories.seq', 'in', seqs);
    const rows = await q.orderBy('distance').limit(k).execute();
    return rows.map((r) => ({ id: r.id, score: 1 - r.distance, factOf: factOf(r) }));
  }

  keywordRanking(_db: Kysely<Database>, query: KeywordQuery, k: number, workspaceId: string, filter: MemoryFilter) {
    const where = memoryFilter(this, workspaceId, filter)(expressionBuilder<Database, 'memories'>());
    // BM25 in FTS5 is negative, lower is better: its negation is the score, ordered by the selected column so that
    // SQLite computes it once per match. The filter is checked for every match, before the k best are taken: when
    // it asks for workspace and status only, the narrow index (seq, workspace_id, status) answers it from fewer
    // pages than the rows (SQLite's planner takes the row's primary key otherwise): 1.47 → 1.04 ms a search at
    // 100k memories (429 recorded searches replayed). Raw SQL because INDEXED BY has no place in Kysely's builder.
    const memories = narrowsBeyond(filter, ['statuses']) ? sql`memories` : sql`memories INDEXED BY memories_seq_scope`;
    // Newest first reads matches in the index's rowid order and scores none: FTS5's BM25 first reads every entry
    // of each term to count it (its inverse document frequency), which for common words is most of the work.
    if (query.order === 'newest') {
      return sql<KeywordRank>`(SELECT memories.seq AS seq, 0 AS score
        FROM memory_fts JOIN ${memories} ON memories.seq = memory_fts.rowid
        WHERE memory_fts MATCH ${ftsMatchExpression(query)} AND ${where}
        ORDER BY memory_fts.rowid DESC LIMIT ${limitExpression(k)})`;
    }
    // Equal scores newest first, as on Postgres: a synthetic or templated corpus has many memories of one length
    // holding one matching word, and which of them make the k best must not depend on the backend.
    return sql<KeywordRank>`(SELECT memories.seq AS seq, -bm25(memory_fts) AS score
      FROM memory_fts JOIN ${memories} ON memories.seq = memory_fts.rowid
      WHERE memory_fts MATCH ${ftsMatchExpression(query)} AND ${where}
      ORDER BY score DESC, memories.seq DESC LIMIT ${limitExpression(k)})`;
  }

  async keywordMatchCounts(
    db: Kysely<Database>,
    workspaceId: string,
    queries: ReadonlyArray<readonly KeywordTerm[]>,
    cap: number,
  ): Promise<number[]> {
    // The FTS index is shared by every workspace; a count is of the workspace's own entries, as on PostgreSQL: a
    // word only another workspace holds had not been expanded to its synonyms here, which told a workspace that some
    // other one holds it (NOTES.md, "Keyword counts per workspace").
    const others = sql<number>`(SELECT count(*) FROM (${othersMemories(workspaceId)} LIMIT ${limitExpression(MOST_SUBTRACTED + 1)}))`;
    const counts = queries.map((terms) => {
      const match = ftsMatchExpression({ terms: [], required: terms });
      // The index's count, up to `cap + 1` past the others' memories: less their matches, the workspace's where it
      // stopped short, and more than `cap` where it did not.
      const byCost = sql<number>`(SELECT CASE
          WHEN s <= ${MOST_SUBTRACTED} AND min(c, ${cap + 1}) >= ${SUBTRACTED_PER_OTHER} * s THEN min(${cap + 1},
            c - (SELECT count(*) FROM memory_fts WHERE memory_fts MATCH ${match} AND rowid IN (${othersMemories(workspaceId)})))
          ELSE (SELECT count(*) FROM (
            SELECT 1 FROM memory_fts JOIN memories INDEXED BY memories_seq_scope ON memories.seq = memory_fts.rowid
            WHERE memory_fts MATCH ${match} AND memories.workspace_id = ${workspaceId} LIMIT ${limitExpression(cap + 1)})) END
        FROM (SELECT s, (SELECT count(*) FROM (
          SELECT 1 FROM memory_fts WHERE memory_fts MATCH ${match} LIMIT ${cap + 1} + ${others})) AS c
          FROM (SELECT ${others} AS s)))`;
      // A workspace alone is counted as the index counts, with nothing else to set up: the statements above cost a
      // count 45 µs against 27 (a count of the bench:recall corpus, better-sqlite3, warm).
      const count = sql<{ n: number }>`SELECT CASE WHEN ${aloneInIndex(workspaceId)}
        THEN (SELECT count(*) FROM (SELECT 1 FROM memory_fts WHERE memory_fts MATCH ${match} LIMIT ${limitExpression(cap + 1)}))
        ELSE ${byCost} END AS n`;
      return { compile: () => count.compile(db) };
    });
    return (await this.read(db, counts)).map((rows) => Number(rows[0]?.n ?? 0));
  }

  async keywordDocumentCount(db: Kysely<Database>, workspaceId: string): Promise<number> {
    // The population `keywordMatchCounts` counts in: the workspace's entries of the index, its memories but facts.
    // Read as the whole index's less the other workspaces' where they hold fewer memories (row by row, the smaller
    // side: a million of one workspace's rows took 450 ms), else counted.
    const entries = (where: RawBuilder<SqlBool>) =>
      sql<number>`(SELECT count(*) FROM memories WHERE ${where} AND source_scope IS NOT ${FACT_SCOPE})`;
    // The others hold fewer memories where none of theirs comes past as many as the workspace holds (its count read
    // once, and not at all where it is alone).
    const own = sql<number>`(SELECT count(*) FROM memories WHERE workspace_id = ${workspaceId})`;
    const counted = sql<{ subtract: number; n: number }>`SELECT subtract, CASE WHEN subtract
        THEN ${entries(sql`workspace_id < ${workspaceId}`)} + ${entries(sql`workspace_id > ${workspaceId}`)}
        ELSE ${entries(sql`workspace_id = ${workspaceId}`)} END AS n
      FROM (SELECT CASE WHEN ${aloneInIndex(workspaceId)} THEN 1
        ELSE NOT EXISTS (SELECT 1 FROM (${othersMemories(workspaceId)}) LIMIT 1 OFFSET ${own}) END AS subtract)`;
    // FTS5 keeps the number of rows it indexes in its "averages" record (id 1 of its data table), a varint first:
    // reading it costs one lookup, where counting the rows would read the whole index.
    const averages = sql<{ block: Uint8Array }>`SELECT block FROM memory_fts_data WHERE id = 1`;
    const [[row], [stored]] = (await this.read(db, [
      { compile: () => counted.compile(db) },
      { compile: () => averages.compile(db) },
    ])) as [Array<{ subtract: number; n: number }>, Array<{ block: Uint8Array }>];
    if (!row!.subtract) return Number(row!.n);
    const block = stored?.block;
    return Math.max(0, (block ? readVarint(block) : 0) - Number(row!.n));
  }

  async dropVectorIndexes(): Promise<void> {
    // The HNSW graphs are rebuilt by warmUp; a snapshot of the old vectors would only be checked and thrown away.
    this.vectors.clear();
    if (this.snapshotDir) removeSnapshot(this.snapshotDir);
    this.warm = false;
  }

  /**
   * Builds the HNSW graphs from the active memories' vectors, or loads the snapshot of the last clean stop and checks
   * it against them (a memory it holds with another vector, or does not hold, is upserted; one the database no longer
   * holds as active is removed). A sealed snapshot (see the constructor) is taken as it is. Until then searches scan
   * exactly.
   */
  async warmUp(db: Kysely<Database>): Promise<WarmUpReport> {
    await this.reader?.start();
    const loaded = this.preloaded ?? (this.snapshotDir === null ? 'none' : this.vectors.load(this.snapshotDir));
    this.preloaded = null;
    if (loaded === 'sealed') {
      // Saved at the last clean close, and the database not opened since: it holds what the rows hold.
      this.warm = true;
      const held = this.vectors.totalSize();
      return { vectors: held, fromSnapshot: held, sealed: true };
    }
    const restored = loaded === 'unverified';
    let fromSnapshot = 0;
    let vectors = 0;
    let afterSeq = 0;
    for (;;) {
      const rows = await db
        .selectFrom('memory_vectors')
        .innerJoin('memories', 'memories.seq', 'memory_vectors.seq')
        .select([
          'memory_vectors.seq',
          'memory_vectors.workspace_id',
          'memory_vectors.embedding',
          'memories.id',
          'memories.source_scope',
          'memories.source_memory_id',
        ])
        .where('memories.status', '=', 'active')
        .where('memory_vectors.seq', '>', afterSeq)
        .orderBy('memory_vectors.seq')
        .limit(WARM_UP_PAGE)
        .execute();
      if (rows.length === 0) break;
      const stored = rows.map((r) => ({
        seq: r.seq,
        workspaceId: r.workspace_id,
        id: r.id,
        derived: r.source_memory_id !== null,
        factOf: factOf(r),
        vector: r.embedding as Buffer,
      }));
      for (const [workspaceId, list] of byWorkspace(stored)) {
        if (restored)
          fromSnapshot += this.vectors.confirm(workspaceId, list, (vector) => this.decodeVector(vector as Buffer));
        else
          this.vectors.upsert(
            workspaceId,
            list.map(({ vector, ...memory }) => ({ ...memory, embedding: this.decodeVector(vector) })),
          );
      }
      vectors += rows.length;
      afterSeq = rows[rows.length - 1]!.seq;
      await yieldToEventLoop();
    }
    if (restored) this.vectors.dropUnverified();
    this.warm = true;
    return { vectors, fromSnapshot, sealed: false };
  }

  /** Saves the graphs for the next start when they are complete (a snapshot is a shortcut, never required). */
  close(): void {
    this.savedSeal = null;
    if (this.warm && this.snapshotDir) {
      try {
        this.savedSeal = this.vectors.save(this.snapshotDir);
      } catch {
        // The next start builds from the database, as it would without a snapshot.
        removeSnapshot(this.snapshotDir);
      }
    }
    this.warm = false;
    this.vectors.clear();
  }
}
