import { sql, type Selectable, type Updateable } from 'kysely';
import { invalid } from '../../errors.js';
import type { MemoriesTable } from '../database.js';
import { keywordTextIfOther } from '../../text/keyword-text.js';
import { bit, json, parseJson, parseJsonObject, toBool, toIso, toIsoOrNull } from '../rows.js';
import {
  FACT_SCOPE,
  factOf,
  type DateSpan,
  type JsonObject,
  type Memory,
  type CandidateRow,
  type KeywordHit,
  type KindCount,
  type KeywordTerm,
  type MemoryFilter,
  type MemoryNode,
  type MemoryPatch,
  type MemoryStatus,
  type MemoryStore,
  type MemoryType,
  type NewMemory,
  type Page,
  type VectorHit,
  type VectorSearchOptions,
  type WrittenMemory,
} from '../types.js';
import type { SqlContext } from './context.js';
import { CANDIDATE_COLUMNS, toCandidateRow } from './candidate-rows.js';
import { memoryFilter } from './memory-filter.js';
import type { VectorEntry } from './search-engine.js';

/** Rows per multi-row INSERT: well under SQLite's 32,766 bound parameters with ~30 columns. */
const INSERT_CHUNK = 500;

export function toMemory(row: Selectable<MemoriesTable>): Memory {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    tenant_id: row.tenant_id,
    context_id: row.context_id,
    user_id: row.user_id,
    content: row.content,
    content_hash: row.content_hash,
    type: row.type as MemoryType,
    subtype: row.subtype,
    importance: row.importance,
    tags: parseJson<string[]>(row.tags),
    metadata: parseJsonObject(row.metadata),
    abstract: row.abstract,
    overview: row.overview,
    session_id: row.session_id,
    access_count: row.access_count,
    last_accessed_at: toIsoOrNull(row.last_accessed_at),
    decay_factor: row.decay_factor,
    source_scope: row.source_scope,
    source_memory_id: row.source_memory_id,
    pinned: toBool(row.pinned),
    status: row.status as MemoryStatus,
    deleted_at: toIsoOrNull(row.deleted_at),
    archived_at: toIsoOrNull(row.archived_at),
    observer_id: row.observer_id,
    subject_id: row.subject_id,
    occurred_at: toIsoOrNull(row.occurred_at),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

/** [seq - reach, seq + reach] for each position, overlapping ones merged, ascending. */
function mergedRanges(seqs: readonly number[], reach: number): Array<[number, number]> {
  const merged: Array<[number, number]> = [];
  for (const seq of [...seqs].sort((a, b) => a - b)) {
    const last = merged.at(-1);
    if (last && seq - reach <= last[1] + 1) last[1] = Math.max(last[1], seq + reach);
    else merged.push([seq - reach, seq + reach]);
  }
  return merged;
}

const WRITTEN_COLUMNS = [...CANDIDATE_COLUMNS, 'user_id', 'metadata'] as const;

function toWritten({
  metadata,
  user_id,
  ...row
}: Pick<Selectable<MemoriesTable>, (typeof WRITTEN_COLUMNS)[number]>): WrittenMemory {
  return { ...toCandidateRow({ ...row, similarity: null }).memory, user_id, metadata: parseJsonObject(metadata) };
}

function toRow(m: NewMemory) {
  return {
    id: m.id,
    workspace_id: m.workspace_id,
    tenant_id: m.tenant_id,
    context_id: m.context_id,
    user_id: m.user_id,
    content: m.content,
    content_hash: m.content_hash,
    type: m.type,
    subtype: m.subtype,
    importance: m.importance,
    tags: json(m.tags),
    metadata: json(m.metadata),
    abstract: m.abstract,
    overview: m.overview,
    session_id: m.session_id,
    access_count: m.access_count,
    last_accessed_at: m.last_accessed_at,
    decay_factor: m.decay_factor,
    source_scope: m.source_scope,
    source_memory_id: m.source_memory_id,
    pinned: bit(m.pinned),
    status: m.status,
    deleted_at: m.deleted_at,
    archived_at: m.archived_at,
    observer_id: m.observer_id,
    subject_id: m.subject_id,
    occurred_at: m.occurred_at,
    created_at: m.created_at,
    updated_at: m.updated_at,
    ...mentionColumns(m.mentions),
    keyword_text: keywordTextIfOther(m.content),
  };
}

/** A memory's named days as its three columns: whatever is written has been read. */
const mentionColumns = (mentions: DateSpan | null) => ({
  mentioned_from: mentions?.start ?? null,
  mentioned_to: mentions?.end ?? null,
  mentions_read: 1,
});

function toPatchRow(patch: MemoryPatch): Updateable<MemoriesTable> {
  const row: Updateable<MemoriesTable> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (key === 'mentions') Object.assign(row, mentionColumns(value as DateSpan | null));
    else if (key === 'tags' || key === 'metadata') (row as Record<string, unknown>)[key] = json(value);
    else if (key === 'pinned') row.pinned = bit(value as boolean);
    else if (key === 'content')
      Object.assign(row, { content: value, keyword_text: keywordTextIfOther(value as string) });
    else (row as Record<string, unknown>)[key] = value;
  }
  return row;
}

const vectorEntry = (
  m: Pick<Memory, 'id' | 'workspace_id' | 'source_memory_id' | 'source_scope'>,
  seq: number,
  embedding: Float32Array,
): VectorEntry => ({
  seq,
  workspaceId: m.workspace_id,
  id: m.id,
  derived: m.source_memory_id !== null,
  factOf: factOf(m),
  embedding,
});

interface Cursor {
  createdAt: string;
  seq: number;
}

/** Terms with their blank words or alternatives left out; a term left with no alternative is dropped. */
function nonBlank(terms: readonly KeywordTerm[]): KeywordTerm[] {
  return terms.flatMap((term): KeywordTerm[] => {
    if (typeof term === 'string') return term.trim() ? [term] : [];
    const alternatives = term.filter((t) => t.trim());
    return alternatives.length > 0 ? [alternatives] : [];
  });
}

const encodeCursor = (cursor: Cursor): string => Buffer.from(JSON.stringify(cursor)).toString('base64url');

function decodeCursor(raw: string): Cursor | null {
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    return typeof value.createdAt === 'string' && Number.isInteger(value.seq) ? value : null;
  } catch {
    return null;
  }
}

export class SqlMemoryStore implements MemoryStore {
  constructor(private readonly ctx: SqlContext) {}

  private get db() {
    return this.ctx.db;
  }

  async insert(memories: NewMemory[]): Promise<void> {
    const { db, engine } = this.ctx;
    for (let start = 0; start < memories.length; start += INSERT_CHUNK) {
      const chunk = memories.slice(start, start + INSERT_CHUNK);
      const rows = chunk.map(toRow);
      const inserted = await db.insertInto('memories').values(rows).returning(['seq', 'id']).execute();
      const seqById = new Map(inserted.map((r) => [r.id, Number(r.seq)]));
      const entries = chunk.map((m, i) => ({
        ...vectorEntry(m, seqById.get(m.id)!, m.embedding),
        text: rows[i]!.keyword_text ?? m.content,
      }));
      await db
        .insertInto('memory_vectors')
        .values(
          entries.map((e) => ({
            seq: e.seq,
            workspace_id: e.workspaceId,
            embedding: engine.encodeVector(e.embedding),
          })),
        )
        .execute();
      await engine.addKeywordEntries(
        db,
        entries.filter((_, i) => chunk[i]!.source_scope !== FACT_SCOPE),
      );
      const active = entries.filter((_, i) => chunk[i]!.status === 'active');
      this.ctx.afterCommit(() => engine.onVectorsAdded(active));
    }
  }

  async get(workspaceId: string, id: string): Promise<Memory | null> {
    const row = await this.db
      .selectFrom('memories')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toMemory(row) : null;
  }

  async getMany(workspaceId: string, ids: readonly string[]): Promise<Memory[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('memories')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where((eb) => this.ctx.engine.anyOf(eb.ref('id'), ids))
      .execute();
    // In the order asked: an IN list promises none (SQLite happened to return key order, Postgres does not).
    const position = new Map(ids.map((id, i) => [id, i]));
    return rows.map(toMemory).sort((a, b) => position.get(a.id)! - position.get(b.id)!);
  }

  async getForChange(workspaceId: string, ids: readonly string[]): Promise<Memory[]> {
    if (ids.length === 0) return [];
    const sorted = [...new Set(ids)].sort();
    let query = this.db
      .selectFrom('memories')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where((eb) => this.ctx.engine.anyOf(eb.ref('id'), sorted))
      .orderBy('id');
    // One order for every transaction that locks several: two of them never wait for each other's rows. NO KEY
    // UPDATE, as an UPDATE of these columns takes: FOR UPDATE would also block the key-share locks that inserting a
    // fact or a link takes on the memories it references, and two enrichment batches linking each other's memories
    // deadlocked on that (a batch failed and waited for its retry).
    if (this.ctx.engine.dialect === 'postgres') query = query.forNoKeyUpdate();
    const byId = new Map((await query.execute()).map((row) => [row.id, toMemory(row)]));
    return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }

  async holdContentHashes(workspaceId: string, hashes: readonly string[]): Promise<void> {
    if (this.ctx.engine.dialect !== 'postgres' || hashes.length === 0) return;
    // In one order, as getForChange locks rows: two writers of overlapping texts never wait for each other.
    const keys = [...new Set(hashes)].sort().map((hash) => `memory-content:${workspaceId}:${hash}`);
    // An aggregate takes the rows as unnest gives them, in the array's order.
    await sql`SELECT count(pg_advisory_xact_lock(hashtextextended(key, 0)))
      FROM unnest(${keys}::text[]) AS key`.execute(this.db);
  }

  async candidates(
    workspaceId: string,
    ids: readonly string[],
    options: { filter?: MemoryFilter; similarTo?: Float32Array } = {},
  ): Promise<CandidateRow[]> {
    if (ids.length === 0) return [];
    const { filter, similarTo } = options;
    const rows = await this.db
      .selectFrom('memories')
      .select(CANDIDATE_COLUMNS.map((column) => `memories.${column}` as const))
      .select(this.similarityTo('memories.seq', similarTo).as('similarity'))
      .where(
        filter
          ? memoryFilter(this.ctx.engine, workspaceId, { ...filter, ids: [...ids] })
          : (eb) => eb.and([eb('workspace_id', '=', workspaceId), this.ctx.engine.anyOf(eb.ref('id'), ids)]),
      )
      .execute();
    return rows.map(toCandidateRow);
  }

  /** The cosine similarity of the stored vector of the row `seq` names to `vector`, as a column; NULL without one. */
  private similarityTo(seq: 'memories.seq' | 'hits.seq', vector: Float32Array | undefined) {
    if (!vector) return sql<number | null>`NULL`;
    const distance = this.ctx.engine.cosineDistance(sql.ref('memory_vectors.embedding'), vector);
    // A subquery rather than a join: only the rows selected in the end have their vector read.
    return sql<
      number | null
    >`(SELECT 1 - (${distance}) FROM memory_vectors WHERE memory_vectors.seq = ${sql.ref(seq)})`;
  }

  async getEmbeddings(workspaceId: string, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('memories')
      .innerJoin('memory_vectors', 'memory_vectors.seq', 'memories.seq')
      .select((eb) => ['memories.id', this.ctx.engine.storedVector(eb.ref('memory_vectors.embedding')).as('embedding')])
      .where('memories.workspace_id', '=', workspaceId)
      .where((eb) => this.ctx.engine.anyOf(eb.ref('memories.id'), ids))
      .execute();
    return new Map(rows.map((r) => [r.id, this.ctx.engine.decodeVector(r.embedding)]));
  }

  async findByContentHashes(
    workspaceId: string,
    hashes: readonly string[],
    statuses: MemoryStatus[] = ['active'],
  ): Promise<Map<string, Memory[]>> {
    const found = new Map<string, Memory[]>();
    const unique = [...new Set(hashes)];
    for (let start = 0; start < unique.length; start += INSERT_CHUNK) {
      const rows = await this.db
        .selectFrom('memories')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('content_hash', 'in', unique.slice(start, start + INSERT_CHUNK))
        .where('status', 'in', statuses)
        .orderBy('seq')
        .execute();
      for (const row of rows) found.set(row.content_hash, [...(found.get(row.content_hash) ?? []), toMemory(row)]);
    }
    return found;
  }

  async update(workspaceId: string, id: string, patch: MemoryPatch, embedding?: Float32Array): Promise<Memory | null> {
    const { db, engine } = this.ctx;
    const before = await db
      .selectFrom('memories')
      .select(['seq', 'status'])
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!before) return null;
    const seq = Number(before.seq);
    const row = await db
      .updateTable('memories')
      .set(toPatchRow(patch))
      .where('seq', '=', seq)
      .returningAll()
      .executeTakeFirstOrThrow();
    const memory = toMemory(row);
    if (embedding) {
      await db
        .updateTable('memory_vectors')
        .set({ embedding: engine.encodeVector(embedding) })
        .where('seq', '=', seq)
        .execute();
    }
    if (patch.content !== undefined) {
      await engine.removeKeywordEntries(db, [seq]);
      if (memory.source_scope !== FACT_SCOPE)
        await engine.addKeywordEntries(db, [{ seq, text: row.keyword_text ?? memory.content }]);
    }
    const wasActive = before.status === 'active';
    const isActive = memory.status === 'active';
    if (wasActive && !isActive) this.ctx.afterCommit(() => engine.onVectorsRemoved(workspaceId, [seq]));
    else if (isActive && (embedding || !wasActive)) {
      const vector = embedding ?? (await this.getEmbeddings(workspaceId, [id])).get(id);
      if (vector) this.ctx.afterCommit(() => engine.onVectorsAdded([vectorEntry(memory, seq, vector)]));
    }
    return memory;
  }

  async setEmbeddings(
    entries: ReadonlyArray<{ workspaceId: string; id: string; embedding: Float32Array }>,
  ): Promise<void> {
    const { db, engine } = this.ctx;
    const added: VectorEntry[] = [];
    for (const { workspaceId, id, embedding } of entries) {
      const row = await db
        .selectFrom('memories')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) continue;
      await db
        .updateTable('memory_vectors')
        .set({ embedding: engine.encodeVector(embedding) })
        .where('seq', '=', Number(row.seq))
        .execute();
      if (row.status === 'active') added.push(vectorEntry(toMemory(row), Number(row.seq), embedding));
    }
    this.ctx.afterCommit(() => engine.onVectorsAdded(added));
  }

  async hardDelete(workspaceId: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const { db, engine } = this.ctx;
    const rows = await db
      .selectFrom('memories')
      .select('seq')
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', [...ids])
      .execute();
    const seqs = rows.map((r) => Number(r.seq));
    if (seqs.length === 0) return 0;
    await engine.removeKeywordEntries(db, seqs);
    // Vectors and edges go with the row (ON DELETE CASCADE).
    await db.deleteFrom('memories').where('seq', 'in', seqs).execute();
    this.ctx.afterCommit(() => engine.onVectorsRemoved(workspaceId, seqs));
    return seqs.length;
  }

  async list(
    workspaceId: string,
    filter: MemoryFilter,
    page: { limit: number; cursor?: string | undefined },
  ): Promise<Page<Memory>> {
    let query = this.db
      .selectFrom('memories')
      .selectAll()
      .where(memoryFilter(this.ctx.engine, workspaceId, filter));
    const cursor = page.cursor ? decodeCursor(page.cursor) : null;
    // Answered with the first page, a cursor no page gave would send a client that follows cursors round forever.
    if (page.cursor && !cursor) throw invalid('/cursor', 'is not a next_cursor of this listing');
    if (cursor) {
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', cursor.createdAt),
          eb.and([eb('created_at', '=', cursor.createdAt), eb('seq', '<', cursor.seq)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .limit(page.limit + 1)
      .execute();
    const items = rows.slice(0, page.limit);
    const last = rows.length > page.limit ? items[items.length - 1] : undefined;
    return {
      items: items.map(toMemory),
      nextCursor: last ? encodeCursor({ createdAt: toIso(last.created_at), seq: Number(last.seq) }) : null,
    };
  }

  async listNodes(workspaceId: string, filter: MemoryFilter, limit: number): Promise<MemoryNode[]> {
    const rows = await this.db
      .selectFrom('memories')
      .select([
        'id',
        'type',
        'subtype',
        'importance',
        'tags',
        'context_id',
        'abstract',
        'content_hash',
        'created_at',
        'updated_at',
      ])
      .where(memoryFilter(this.ctx.engine, workspaceId, filter))
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      type: row.type as MemoryType,
      subtype: row.subtype,
      importance: row.importance,
      tags: parseJson<string[]>(row.tags),
      context_id: row.context_id,
      abstract: row.abstract,
      content_hash: row.content_hash,
      created_at: toIso(row.created_at),
      updated_at: toIso(row.updated_at),
    }));
  }

  async countByKind(workspaceId: string, filter: MemoryFilter): Promise<KindCount[]> {
    const rows = await this.db
      .selectFrom('memories')
      .select((eb) => ['type', 'subtype', eb.fn.countAll().as('n')])
      .where(memoryFilter(this.ctx.engine, workspaceId, filter))
      .groupBy(['type', 'subtype'])
      .orderBy('type')
      .orderBy('subtype')
      .execute();
    return rows.map((row) => ({ type: row.type as MemoryType, subtype: row.subtype, count: Number(row.n) }));
  }

  async count(workspaceId: string, filter: MemoryFilter): Promise<number> {
    const row = await this.db
      .selectFrom('memories')
      .select((eb) => eb.fn.countAll().as('n'))
      .where(memoryFilter(this.ctx.engine, workspaceId, filter))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async sourcesOfDerived(
    workspaceId: string,
    ids: readonly string[],
    statuses: readonly MemoryStatus[],
  ): Promise<Set<string>> {
    if (ids.length === 0 || statuses.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('memories')
      .select('source_memory_id')
      .distinct()
      .where('workspace_id', '=', workspaceId)
      .where('source_memory_id', 'in', [...ids])
      .where('status', 'in', [...statuses])
      .execute();
    return new Set(rows.map((r) => r.source_memory_id!));
  }

  async vectorSearch(workspaceId: string, vector: Float32Array, options: VectorSearchOptions): Promise<VectorHit[]> {
    return (await this.vectorSearchMany(workspaceId, [vector], options))[0]!;
  }

  vectorSearchMany(
    workspaceId: string,
    vectors: readonly Float32Array[],
    options: VectorSearchOptions,
  ): Promise<VectorHit[][]> {
    if (vectors.length === 0) return Promise.resolve([]);
    return this.ctx.engine.vectorSearch(
      this.db,
      workspaceId,
      vectors,
      options.k,
      options.filter ?? {},
      options.bestEffort ?? false,
      options.minScore,
    );
  }

  async keywordSearch(
    workspaceId: string,
    terms: readonly string[],
    options: {
      k: number;
      filter?: MemoryFilter;
      required?: readonly KeywordTerm[];
      order?: 'relevance' | 'newest';
      weights?: readonly number[];
      similarTo?: Float32Array;
    },
  ): Promise<KeywordHit[]> {
    const kept = terms.flatMap((t, i) => (t.trim() ? [i] : []));
    const query = {
      terms: kept.map((i) => terms[i]!),
      required: nonBlank(options.required ?? []),
      order: options.order ?? 'relevance',
      weights: options.weights && kept.map((i) => options.weights![i] ?? 1),
    };
    if (query.terms.length === 0 && query.required.length === 0) return [];
    const { db, engine } = this.ctx;
    const ranked = engine.keywordRanking(db, query, options.k, workspaceId, options.filter ?? {}).as('hits');
    // The ranking picks k rows first; only those are joined to their columns and vectors.
    const hits = db
      .selectFrom(ranked)
      .innerJoin('memories', 'memories.seq', 'hits.seq')
      .select(CANDIDATE_COLUMNS.map((column) => `memories.${column}` as const))
      .select(['hits.score', this.similarityTo('hits.seq', options.similarTo).as('similarity')])
      .orderBy('hits.score', 'desc')
      .orderBy('hits.seq', 'desc');
    const [rows] = await engine.read(db, [hits]);
    return rows!.map(({ score, ...row }) => ({ id: row.id, score: Number(score), ...toCandidateRow(row) }));
  }

  async nearestHolding(
    workspaceId: string,
    required: readonly KeywordTerm[],
    vector: Float32Array,
    options: { scan: number; k: number; filter?: MemoryFilter },
  ): Promise<KeywordHit[]> {
    const terms = nonBlank(required);
    if (terms.length === 0 || options.k <= 0 || options.scan <= 0) return [];
    const { db, engine } = this.ctx;
    const newest = engine
      .keywordRanking(
        db,
        { terms: [], required: terms, order: 'newest' },
        options.scan,
        workspaceId,
        options.filter ?? {},
      )
      .as('hits');
    // Similarity over the scanned seqs first (every memory has its vector row), and the columns of the k nearest only.
    const distance = engine.cosineDistance(sql.ref('memory_vectors.embedding'), vector);
    const nearest = db
      .selectFrom(newest)
      .innerJoin('memory_vectors', 'memory_vectors.seq', 'hits.seq')
      .select(['hits.seq', sql<number>`1 - (${distance})`.as('similarity')])
      .orderBy('similarity', 'desc')
      .orderBy('hits.seq', 'desc')
      .limit(options.k)
      .as('nearest');
    const rows = db
      .selectFrom(nearest)
      .innerJoin('memories', 'memories.seq', 'nearest.seq')
      .select(CANDIDATE_COLUMNS.map((column) => `memories.${column}` as const))
      .select('nearest.similarity')
      .orderBy('nearest.similarity', 'desc')
      .orderBy('nearest.seq', 'desc');
    const [found] = await engine.read(db, [rows]);
    return found!.map((row) => ({ id: row.id, score: Number(row.similarity), ...toCandidateRow(row) }));
  }

  async keywordMatchCounts(
    workspaceId: string,
    queries: ReadonlyArray<readonly KeywordTerm[]>,
    options: { cap: number },
  ): Promise<number[]> {
    const asked = queries.map(nonBlank);
    const counted = await this.ctx.engine.keywordMatchCounts(
      this.db,
      workspaceId,
      asked.filter((terms) => terms.length > 0),
      options.cap,
    );
    return asked.map((terms) => (terms.length === 0 ? 0 : counted.shift()!));
  }

  keywordDocumentCount(workspaceId: string): Promise<number> {
    return this.ctx.engine.keywordDocumentCount(this.db, workspaceId);
  }

  async writtenAround(
    workspaceId: string,
    seqs: readonly number[],
    options: { reach: number; filter?: MemoryFilter },
  ): Promise<WrittenMemory[]> {
    if (seqs.length === 0) return [];
    const ranges = mergedRanges(seqs, options.reach);
    // The ranges pick rows by primary key first; a WHERE holding both the ranges and the filter had SQLite walk the
    // workspace's (workspace_id, status) index instead: 34 ms for 70 anchors at 20k memories, 1.2 ms this way.
    const near = this.db
      .selectFrom('memories as near')
      .select('near.seq')
      .where((eb) => eb.or(ranges.map(([low, high]) => eb('near.seq', '>=', low).and('near.seq', '<=', high))));
    const rows = await this.db
      .selectFrom('memories')
      .select(WRITTEN_COLUMNS.map((column) => `memories.${column}` as const))
      .where(memoryFilter(this.ctx.engine, workspaceId, options.filter))
      .where('memories.seq', 'in', near)
      .orderBy('memories.seq')
      .execute();
    return rows.map(toWritten);
  }

  async metadataAt(workspaceId: string, seqs: readonly number[]): Promise<Map<number, JsonObject>> {
    if (seqs.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('memories')
      .select(['seq', 'metadata'])
      .where('workspace_id', '=', workspaceId)
      .where('seq', 'in', seqs)
      .execute();
    return new Map(rows.map((row) => [Number(row.seq), parseJsonObject(row.metadata)]));
  }

  async mentioning(
    workspaceId: string,
    span: DateSpan,
    options: { limit: number; maxSpanMs: number; filter?: MemoryFilter },
  ): Promise<string[]> {
    const earliest = new Date(Date.parse(span.start) - options.maxSpanMs).toISOString();
    const rows = await this.db
      .selectFrom('memories')
      .select('id')
      .where(memoryFilter(this.ctx.engine, workspaceId, options.filter))
      .where('mentioned_from', '>=', earliest)
      .where('mentioned_from', '<=', span.end)
      .where('mentioned_to', '>=', span.start)
      .orderBy('mentioned_from')
      .orderBy('id')
      .limit(options.limit)
      .execute();
    return rows.map((row) => row.id);
  }

  async mentionsUnread(
    limit: number,
  ): Promise<Array<Pick<Memory, 'id' | 'workspace_id' | 'content' | 'source_scope' | 'occurred_at' | 'created_at'>>> {
    const rows = await this.db
      .selectFrom('memories')
      .select(['id', 'workspace_id', 'content', 'source_scope', 'occurred_at', 'created_at'])
      .where('mentions_read', '=', 0)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      ...row,
      occurred_at: toIsoOrNull(row.occurred_at),
      created_at: toIso(row.created_at),
    }));
  }

  async setMentions(entries: ReadonlyArray<{ id: string; mentions: DateSpan | null }>): Promise<void> {
    // A statement a memory: callers batch them in one transaction (Storage.transaction). One read since (a change of
    // its text) is newer than this.
    for (const { id, mentions } of entries)
      await this.db
        .updateTable('memories')
        .set(mentionColumns(mentions))
        .where('id', '=', id)
        .where('mentions_read', '=', 0)
        .execute();
  }

  async recordAccess(workspaceId: string, ids: readonly string[], at: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('memories')
      .set((eb) => ({
        access_count: eb('access_count', '+', 1),
        last_accessed_at: at,
        importance: eb
          .case()
          .when('pinned', '=', bit(true))
          .then(eb.ref('importance'))
          .when(eb('importance', '*', 1.1), '>', 1)
          .then(1)
          .else(eb('importance', '*', 1.1))
          .end(),
      }))
      .where('workspace_id', '=', workspaceId)
      .where((eb) => this.ctx.engine.anyOf(eb.ref('id'), ids))
      .execute();
  }

  async scan(
    workspaceId: string | null,
    afterSeq: number,
    limit: number,
    filter: MemoryFilter = { statuses: ['active', 'archived', 'deleted'] },
  ): Promise<Array<{ seq: number; memory: Memory; embedding: Float32Array | null }>> {
    const rows = await this.db
      .selectFrom('memories')
      .leftJoin('memory_vectors', 'memory_vectors.seq', 'memories.seq')
      .selectAll('memories')
      .select((eb) => this.ctx.engine.storedVector(eb.ref('memory_vectors.embedding')).as('embedding'))
      .where(memoryFilter(this.ctx.engine, workspaceId, filter))
      .where('memories.seq', '>', afterSeq)
      .orderBy('memories.seq')
      .limit(limit)
      .execute();
    return rows.map(({ embedding, ...row }) => ({
      seq: Number(row.seq),
      memory: toMemory(row),
      embedding: embedding === null ? null : this.ctx.engine.decodeVector(embedding),
    }));
  }
}
