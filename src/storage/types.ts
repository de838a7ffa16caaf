/**
 * The storage contract: records as the core sees them and one async interface per aggregate.
 * `sqlite/` and `postgres/` implement it; the conformance suite in test/conformance runs against both.
 */

// The records declared once as TypeBox schemas in src/schemas (they are also the API's shapes).
import type { ApiKey } from '../schemas/api-key.js';
import type { Application, ApplicationLink, ApplicationType } from '../schemas/application.js';
import type { Association } from '../schemas/association.js';
import type { Contradiction, ContradictionResolution } from '../schemas/contradiction.js';
import type { DataProvider, DataProviderType } from '../schemas/data-provider.js';
import type {
  DocumentPage,
  DocumentRecord,
  DocumentType,
  IngestionJob,
  IngestionStatus,
  PageError,
  StoredDocument,
} from '../schemas/document.js';
import type { CachedEntityCard } from '../schemas/entity.js';
import type { ErasureAudit, ErasureCounts, SelectorKind } from '../schemas/erasure.js';
import type {
  ArticleKind,
  ArticleLink,
  KnowledgebaseArticle,
  KnowledgebaseJob,
  KnowledgebaseJobStatus,
  KnowledgebaseMeta,
} from '../schemas/knowledgebase.js';
import type { McpScope, McpServerEntry, McpTransport } from '../schemas/mcp-server.js';
import type { Memory, MemoryStatus, MemoryType } from '../schemas/memory.js';
import type { SourceMode } from '../schemas/registry.js';
import type { Session, WorkingMemoryEntry } from '../schemas/session.js';
import type { Skill, SkillFileInfo, SkillScope } from '../schemas/skill.js';
import type { ChatMessage, ChatThread } from '../schemas/thread.js';
import type { Context, Workspace } from '../schemas/workspace.js';
export type {
  ApiKey,
  Application,
  ApplicationLink,
  ApplicationType,
  ArticleKind,
  ArticleLink,
  Association,
  CachedEntityCard,
  ChatMessage,
  ChatThread,
  Context,
  Contradiction,
  ContradictionResolution,
  DataProvider,
  DataProviderType,
  DocumentPage,
  DocumentRecord,
  DocumentType,
  ErasureAudit,
  ErasureCounts,
  IngestionJob,
  IngestionStatus,
  KnowledgebaseArticle,
  KnowledgebaseJob,
  KnowledgebaseJobStatus,
  KnowledgebaseMeta,
  McpScope,
  McpServerEntry,
  McpTransport,
  Memory,
  MemoryStatus,
  MemoryType,
  PageError,
  SelectorKind,
  Session,
  Skill,
  SkillFileInfo,
  SkillScope,
  SourceMode,
  StoredDocument,
  WorkingMemoryEntry,
  Workspace,
};
export type { ChatRole, ContentBlock, MessageContent } from '../schemas/thread.js';

export type JsonObject = Record<string, unknown>;

export interface NewMemory extends Memory {
  embedding: Float32Array;
  /** The days its text names (core/memories/mentioned-dates.ts); not part of the API's record. */
  mentions: DateSpan | null;
}

/** From the first instant of the first day named to the last of the last, ISO 8601 UTC. */
export interface DateSpan {
  start: string;
  end: string;
}

/** Fields a write may change; absent keys stay as they are. */
export type MemoryPatch = Partial<
  Pick<
    Memory,
    | 'content'
    | 'content_hash'
    | 'type'
    | 'subtype'
    | 'importance'
    | 'tags'
    | 'metadata'
    | 'abstract'
    | 'overview'
    | 'pinned'
    | 'status'
    | 'archived_at'
    | 'deleted_at'
    | 'decay_factor'
    | 'occurred_at'
    | 'updated_at'
  >
> & {
  /** The days a changed text names, read again whenever the content or the event time changes. */
  mentions?: DateSpan | null;
};

export interface KindCount {
  type: MemoryType;
  subtype: string | null;
  count: number;
}

export interface MemoryFilter {
  ids?: string[];
  excludeIds?: string[];
  /** Defaults to `['active']` everywhere a filter is accepted. */
  statuses?: MemoryStatus[];
  types?: string[];
  subtypes?: string[];
  /** Every tag must be present (AND), compared exactly. */
  tags?: string[];
  contextId?: string;
  userId?: string;
  sessionId?: string;
  observerId?: string;
  subjectId?: string;
  sourceMemoryId?: string;
  /** Only memories derived from another (facts, insights) when true; only originals when false. */
  derived?: boolean;
  createdAfter?: string;
  createdBefore?: string;
  /** Only memories whose `source_scope` is one of these (e.g. `['fact']`). */
  sourceScopes?: string[];
  /** Leaves out memories whose `source_scope` is one of these; memories without a scope stay. */
  excludeSourceScopes?: string[];
  /**
   * Memories of a time window: their event time (`occurred_at`, else `created_at`) falls in it, or a day their text
   * names does (`NewMemory.mentions`).
   */
  during?: DateSpan;
}

/**
 * `source_scope` of atomic facts, the sentences a memory is decomposed into. They are an index of their parent for
 * vector search and stay out of keyword search: they repeat their parent's words, and recall answers keyword
 * questions with originals.
 */
export const FACT_SCOPE = 'fact';

/** A memory's `VectorHit.factOf`, from its columns. */
export const factOf = (m: { source_scope: string | null; source_memory_id: string | null }): string | null =>
  m.source_scope === FACT_SCOPE ? m.source_memory_id : null;

export interface ScoredId {
  id: string;
  /** Cosine similarity for vector search; engine rank score (higher is better) for keyword search. */
  score: number;
}

/** A vector match; an atomic fact says whose fact it is, so that a search can stand for its parent unread. */
export interface VectorHit extends ScoredId {
  /** The memory an atomic fact (`FACT_SCOPE`) was decomposed from; null for any other memory. */
  factOf: string | null;
}

/**
 * A memory as conversation adjacency reads it (see `MemoryStore.writtenAround`): its ranking columns (so that a turn
 * brought in by its neighbour needs no other read), its metadata (which may name its conversation and turn) and its
 * user (unnamed turns of different users are not one conversation). Not candidates' columns: only adjacency reads them.
 */
export type WrittenMemory = MemoryCandidate & Pick<Memory, 'user_id'> & { metadata: JsonObject };

export interface Page<T> {
  items: T[];
  /** Opaque; pass back to get the next page. Null on the last page. */
  nextCursor: string | null;
}

/** What recall ranks a memory by; the other columns (hash, tiers, tags, metadata, …) are read for its results only. */
export type MemoryCandidate = Pick<
  Memory,
  | 'id'
  | 'content'
  | 'context_id'
  | 'session_id'
  | 'subject_id'
  | 'source_scope'
  | 'source_memory_id'
  | 'occurred_at'
  | 'created_at'
> & {
  /** Write order (`WrittenMemory.seq`): where its conversation's turns are read from. */
  seq: number;
  /** The days its text names (`NewMemory.mentions`). */
  mentions: DateSpan | null;
};

/**
 * What recall ranks a memory by, read in one statement: its ranking columns and, when a vector was given, its
 * stored vector's cosine similarity to that vector (null without one).
 */
export interface CandidateRow {
  memory: MemoryCandidate;
  similarity: number | null;
}

/** A word or phrase of a keyword query (several words match as a phrase), or alternatives of which any will do. */
export type KeywordTerm = string | readonly string[];

/** A keyword match with what recall ranks it by. */
export interface KeywordHit extends ScoredId, CandidateRow {}

/** A memory as a node of the association graph: what analyses and snapshots need, without content or vector. */
export type MemoryNode = Pick<
  Memory,
  | 'id'
  | 'type'
  | 'subtype'
  | 'importance'
  | 'tags'
  | 'context_id'
  | 'abstract'
  | 'content_hash'
  | 'created_at'
  | 'updated_at'
>;

export interface MemoryStore {
  insert(memories: NewMemory[]): Promise<void>;
  get(workspaceId: string, id: string): Promise<Memory | null>;
  /** The memories of `ids` that exist, in the order of `ids`. */
  getMany(workspaceId: string, ids: readonly string[]): Promise<Memory[]>;
  getEmbeddings(workspaceId: string, ids: readonly string[]): Promise<Map<string, Float32Array>>;
  /**
   * The memories among `ids` that pass the filter (without one: all of them), with the columns recall ranks by
   * and, with `similarTo`, their vectors' similarity to it.
   */
  candidates(
    workspaceId: string,
    ids: readonly string[],
    options?: { filter?: MemoryFilter; similarTo?: Float32Array },
  ): Promise<CandidateRow[]>;
  /**
   * The memories of each content hash among the given statuses (default: active), oldest first: one text may be held
   * once for each customer, user, agent or context (core/memories/records.ts `attributionKey`).
   */
  findByContentHashes(
    workspaceId: string,
    hashes: readonly string[],
    statuses?: MemoryStatus[],
  ): Promise<Map<string, Memory[]>>;
  /**
   * Inside a transaction: the memories of `ids` that exist, read again for a change that depends on them, and held
   * until the transaction ends. On PostgreSQL each row is locked (`FOR NO KEY UPDATE`, in id order), so a change of the same
   * memory through another node waits and then reads what this one wrote; SQLite's write transactions run one at a
   * time already. In the order of `ids`.
   */
  getForChange(workspaceId: string, ids: readonly string[]): Promise<Memory[]>;
  /**
   * Inside a transaction: holds the workspace's content hashes until it ends, so that two nodes writing the same
   * text at once take turns, and the second finds the first's memory (PostgreSQL: transaction advisory locks, in
   * hash order; SQLite's write transactions run one at a time already).
   */
  holdContentHashes(workspaceId: string, hashes: readonly string[]): Promise<void>;
  /** Applies the patch; a new embedding replaces the vector and the keyword entry follows the content. */
  update(workspaceId: string, id: string, patch: MemoryPatch, embedding?: Float32Array): Promise<Memory | null>;
  /** Replaces stored vectors (re-embedding with another model); the search index follows after commit. */
  setEmbeddings(entries: ReadonlyArray<{ workspaceId: string; id: string; embedding: Float32Array }>): Promise<void>;
  /** Permanently removes the memories, their vectors, keyword entries and edges. Returns how many existed. */
  hardDelete(workspaceId: string, ids: readonly string[]): Promise<number>;
  list(
    workspaceId: string,
    filter: MemoryFilter,
    page: { limit: number; cursor?: string | undefined },
  ): Promise<Page<Memory>>;
  count(workspaceId: string, filter: MemoryFilter): Promise<number>;
  /** Those of `ids` that memories in one of `statuses` are derived from (facts, insights), in one read. */
  sourcesOfDerived(
    workspaceId: string,
    ids: readonly string[],
    statuses: readonly MemoryStatus[],
  ): Promise<Set<string>>;
  /** How many memories matching the filter there are of each type and subtype. */
  countByKind(workspaceId: string, filter: MemoryFilter): Promise<KindCount[]>;
  /** The newest `limit` memories matching the filter, as graph nodes (graph analysis, snapshots). */
  listNodes(workspaceId: string, filter: MemoryFilter, limit: number): Promise<MemoryNode[]>;
  /** Nearest neighbours by cosine similarity among memories matching the filter. */
  vectorSearch(workspaceId: string, vector: Float32Array, options: VectorSearchOptions): Promise<VectorHit[]>;
  /** `vectorSearch` for many query vectors at once (one result list per vector, in order). */
  vectorSearchMany(
    workspaceId: string,
    vectors: readonly Float32Array[],
    options: VectorSearchOptions,
  ): Promise<VectorHit[][]>;
  /**
   * Full-text search: any of the terms (OR), ranked by the engine's relevance (BM25 / ts_rank). A term of several
   * words matches as a phrase. With `required`, a memory must also contain every required term (entity anchoring,
   * every word of a query); a required term may be alternatives, any of which will do. `order: 'newest'` takes the
   * newest matches and scores none (score 0): for a caller that ranks the matches itself. `weights`, one per term:
   * how much each weighs (its rarity), for an engine whose score does not measure it (Postgres). Equal scores come
   * newest first on every engine.
   * Atomic facts (`FACT_SCOPE`) are never found. Each hit comes with its ranking columns and, with `similarTo`,
   * its vector's similarity to it: recall reads nothing more for a keyword candidate.
   */
  keywordSearch(
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
  ): Promise<KeywordHit[]>;
  /**
   * Of the newest `scan` memories holding every `required` term (as `keywordSearch` matches them), the `k` whose
   * vectors are nearest to `vector`, nearest first (equal similarities newest first); `score` is the similarity.
   * Only the `k` kept are read with their ranking columns.
   */
  nearestHolding(
    workspaceId: string,
    required: readonly KeywordTerm[],
    vector: Float32Array,
    options: { scan: number; k: number; filter?: MemoryFilter },
  ): Promise<KeywordHit[]>;
  /**
   * The memories that pass the filter written at most `reach` places before or after one of the given write
   * positions (`seq`, counting every memory of the database), in write order: what conversation adjacency is decided
   * from (core/recall/conversation.ts).
   */
  writtenAround(
    workspaceId: string,
    seqs: readonly number[],
    options: { reach: number; filter?: MemoryFilter },
  ): Promise<WrittenMemory[]>;
  /** The metadata of the workspace's memories at these write positions (`seq`), by position; absent ones are left out. */
  metadataAt(workspaceId: string, seqs: readonly number[]): Promise<Map<number, JsonObject>>;
  /**
   * How many keyword-index entries match each query (a term or phrase, or with `all` every one of the terms at
   * once), counted up to `cap` (more is reported as `cap + 1`): what a keyword search would have to score. The
   * workspace's own entries, on every engine: another workspace's words never change a count (they had on SQLite,
   * whose index all workspaces share, and so what a recall searched). Cheap, so that a search can leave out terms
   * too common to score quickly.
   */
  keywordMatchCounts(
    workspaceId: string,
    queries: ReadonlyArray<readonly KeywordTerm[]>,
    options: { cap: number },
  ): Promise<number[]>;
  /**
   * How many memories the keyword index holds, in the population `keywordMatchCounts` counts in (SQLite: the
   * workspace's entries, FTS5's own row count less the other workspaces' where they hold fewer memories, else
   * counted; Postgres: the workspace's active originals, counted): with a term's match count, how rare the term is.
   */
  keywordDocumentCount(workspaceId: string): Promise<number>;
  /**
   * The memories matching the filter a day of whose text (`NewMemory.mentions`) falls in the span, at most `limit`,
   * the earliest named first. Spans are at most `maxSpanMs` long, so the index reads a bounded range.
   */
  mentioning(
    workspaceId: string,
    span: DateSpan,
    options: { limit: number; maxSpanMs: number; filter?: MemoryFilter },
  ): Promise<string[]>;
  /**
   * Memories of any workspace whose named days were never read (written before the column existed), oldest first,
   * with what reading them needs.
   */
  mentionsUnread(
    limit: number,
  ): Promise<Array<Pick<Memory, 'id' | 'workspace_id' | 'content' | 'source_scope' | 'occurred_at' | 'created_at'>>>;
  /** Records the named days read for each memory not read since (null: none), and that they were read. */
  setMentions(entries: ReadonlyArray<{ id: string; mentions: DateSpan | null }>): Promise<void>;
  /** Counts a recall hit: access_count + 1, last_accessed_at, importance x1.1 (cap 1) unless pinned. */
  recordAccess(workspaceId: string, ids: readonly string[], at: string): Promise<void>;
  /** Memories in storage order after `afterSeq`, with their embeddings (export, re-embed). */
  scan(
    workspaceId: string | null,
    afterSeq: number,
    limit: number,
    filter?: MemoryFilter,
  ): Promise<Array<{ seq: number; memory: Memory; embedding: Float32Array | null }>>;
}

/** A workspace's state for a call that names it: `provisional` until a call other than its creator's uses it. */
export type WorkspacePresence = 'absent' | 'provisional' | 'present';

export interface WorkspaceStore {
  /**
   * Inserts unless the id is taken (two creates of one id at once: one inserts); never changes an existing
   * workspace. Whether it inserted. `provisional`: created on first use, removable by its creator (`deleteUnused`)
   * until another call adopts it.
   */
  create(workspace: Workspace, options?: { provisional?: boolean }): Promise<boolean>;
  /** Whether the workspace exists, and whether it is provisional. */
  presence(id: string): Promise<WorkspacePresence>;
  /** Marks a workspace used by another call than its creator's: no longer provisional. Whether it exists. */
  adopt(id: string): Promise<boolean>;
  /**
   * Removes the provisional workspace created at `createdAt` when it holds nothing (no row of its own in any table,
   * but the context `keptContext` its creation added), in the caller's transaction. Whether it removed it.
   */
  deleteUnused(id: string, createdAt: string, keptContext: string): Promise<boolean>;
  get(id: string): Promise<Workspace | null>;
  /** Oldest first; only those of `ids` when given. */
  list(ids?: readonly string[]): Promise<Workspace[]>;
  update(id: string, patch: Partial<Pick<Workspace, 'name' | 'settings' | 'updated_at'>>): Promise<Workspace | null>;
  /** Removes the workspace and everything in it. Returns false when it did not exist. */
  delete(id: string): Promise<boolean>;
  /**
   * How many acknowledged changes the workspace's memories and links have had (0 before the first), as every node
   * sees it; it never goes back, not even when the workspace is deleted and created again.
   */
  memoryVersion(id: string): Promise<number>;
  /** Counts one more change (after it committed). */
  bumpMemoryVersion(id: string): Promise<void>;
}

export interface ContextStore {
  /** Inserts unless the id is taken (two creates of one id at once: one inserts). Whether it inserted. */
  create(context: Context): Promise<boolean>;
  get(workspaceId: string, id: string): Promise<Context | null>;
  list(workspaceId: string): Promise<Context[]>;
}

export type Direction = 'outgoing' | 'incoming' | 'both';

/** An association as an edge of the graph: what analyses read, without metadata. */
export type GraphEdge = Pick<Association, 'id' | 'source_id' | 'target_id' | 'relationship' | 'strength'>;

/** An edge as seen from one of its ends (`near`), with the row of the memory at the other. */
export interface NeighbourRow {
  near: string;
  edge: GraphEdge;
  memory: MemoryCandidate;
}

export interface AssociationStore {
  /** Inserts, or updates strength and metadata of the existing (source, target, relationship) edge. */
  upsert(association: Association): Promise<Association>;
  /**
   * `upsert` of each edge in order, in a few statements (enrichment writes a batch's `part_of` edges and links at
   * once).
   */
  upsertMany(associations: readonly Association[]): Promise<void>;
  get(workspaceId: string, id: string): Promise<Association | null>;
  /** Every edge touching any of the memories in the direction given, whatever the status of the far end. */
  listForMemories(
    workspaceId: string,
    memoryIds: readonly string[],
    options: { direction: Direction; relationships?: string[] },
  ): Promise<Association[]>;
  /** Edges touching any of the memories, in the given direction, whose far end is an active memory. */
  neighbours(
    workspaceId: string,
    memoryIds: readonly string[],
    options: {
      direction: Direction;
      relationships?: string[];
      excludeRelationships?: readonly string[];
      minStrength?: number;
      limit?: number;
    },
  ): Promise<Association[]>;
  /**
   * Edges touching any of the memories (both directions; some relationships may be left out), each with the row of
   * the memory at its far end, for far ends that are active and pass `filter`: one hop of recall's expansion in one
   * read, where the edges and then their far ends' rows had been two.
   */
  neighbourRows(
    workspaceId: string,
    memoryIds: readonly string[],
    options: { excludeRelationships?: readonly string[]; filter: MemoryFilter },
  ): Promise<NeighbourRow[]>;
  /** Every edge of a workspace in id order, from after `afterId` (export). */
  scan(workspaceId: string, afterId: string | null, limit: number): Promise<Association[]>;
  /** The same order and paging as `scan`, as light graph edges (graph analysis). */
  scanEdges(workspaceId: string, afterId: string | null, limit: number): Promise<GraphEdge[]>;
  /** How many edges touch each memory from other memories (backlinks), for the given ids; some relationships may be left out. */
  incomingCounts(
    workspaceId: string,
    memoryIds: readonly string[],
    options?: { excludeRelationships?: readonly string[] },
  ): Promise<Map<string, number>>;
  delete(workspaceId: string, id: string): Promise<boolean>;
  count(workspaceId: string): Promise<number>;
}

export type TaskStatus = 'pending' | 'running' | 'failed';
export interface VectorSearchOptions {
  k: number;
  filter?: MemoryFilter;
  /**
   * Best effort: when an approximate index cannot apply the filter itself, the filter's matches among the index's
   * nearest candidates, possibly fewer than k, instead of an exact scan of everything the filter allows. For
   * searches that only add candidates (a soft arm), where an exact scan would cost more than it gives.
   */
  bestEffort?: boolean;
  /**
   * Only hits at least this similar are wanted (a near-duplicate check, enrichment's neighbours): hits below it may
   * be left out, and an approximate index may search a narrower beam, since what is that close is found first.
   */
  minScore?: number;
}

export type TaskCounts = Record<TaskStatus | 'scheduled', number>;

/** The due tasks of one kind: how many, and since when the longest-waiting one has been due. */
export interface KindBacklog {
  kind: string;
  pending: number;
  /** The earliest `runAt` among them. */
  oldestDueAt: string;
}

/** The queue at a glance: counts by state, and the backlog of each kind that has one. */
export interface TaskSummary {
  counts: TaskCounts;
  backlog: KindBacklog[];
}

export interface NewTask {
  kind: string;
  workspaceId: string | null;
  payload: JsonObject;
  /** A task with the same key already queued or running is not queued again. */
  dedupeKey?: string;
  /**
   * With `dedupeKey`: a task of that key already running read what this one is queued for before it changed (a
   * memory's text), so it runs again after it instead of being dropped (the running claim completes nothing).
   */
  rerunIfRunning?: boolean;
  runAt: string;
}

export interface Task {
  id: number;
  kind: string;
  workspaceId: string | null;
  payload: JsonObject;
  status: TaskStatus;
  attempts: number;
  runAt: string;
  leaseUntil: string | null;
  lastError: string | null;
  dedupeKey: string | null;
  createdAt: string;
}

export interface TaskStore {
  enqueue(tasks: NewTask[]): Promise<void>;
  /** Leases up to `limit` due tasks (pending, or running with an expired lease) and counts the attempt. */
  claim(options: { now: string; leaseUntil: string; limit: number }): Promise<Task[]>;
  /** Pushes the lease of running tasks forward (their worker is alive and busy). */
  extendLeases(ids: readonly number[], leaseUntil: string): Promise<void>;
  /**
   * Leased tasks that never started back to pending, to be claimed again at once, without the attempt their claim
   * counted (a worker stopping gracefully).
   */
  release(ids: readonly number[]): Promise<void>;
  /** Every running task back to pending: its worker cannot be alive (the embedded engine has one process). */
  releaseAllLeases(): Promise<number>;
  /** Finished tasks leave the queue (a task queued again while it ran stays, pending). */
  complete(ids: readonly number[]): Promise<void>;
  /** Back to pending at `retryAt`, or `failed` for good when `retryAt` is null (a task queued again while it ran is pending already). */
  fail(id: number, error: string, retryAt: string | null): Promise<void>;
  /** Tasks by state at `now`: `pending` ones are due, `scheduled` ones wait for their time (recurring work, retries). */
  counts(now: string): Promise<TaskCounts>;
  /** The counts, and the due tasks by kind, from one read of the queue (health, metrics). */
  summary(now: string): Promise<TaskSummary>;
  list(options: { status?: TaskStatus; limit: number }): Promise<Task[]>;
}

export interface ApiKeyStore {
  create(key: ApiKey): Promise<void>;
  findByHash(keyHash: string): Promise<ApiKey | null>;
  list(): Promise<ApiKey[]>;
  delete(id: string): Promise<boolean>;
  touch(id: string, at: string): Promise<void>;
}

export interface SessionStore {
  /** Inserts unless the id is taken (two creates of one id at once: one inserts). Whether it inserted. */
  create(session: Session): Promise<boolean>;
  get(id: string): Promise<Session | null>;
  list(options: { workspaceId?: string; contextId?: string; activeAt?: string }): Promise<Session[]>;
  /** Sessions whose expiry is at or before `at`, oldest first. */
  expired(at: string, limit: number): Promise<Session[]>;
  update(
    id: string,
    patch: Partial<Pick<Session, 'expires_at' | 'ttl_seconds' | 'metadata' | 'updated_at'>>,
  ): Promise<Session | null>;
  delete(id: string): Promise<boolean>;
  /** Inserts or replaces the entry under its key (created_at survives a replace). */
  putEntry(sessionId: string, entry: WorkingMemoryEntry): Promise<WorkingMemoryEntry>;
  /** Entries still alive at `at` (no expiry, or expiring later). */
  entries(sessionId: string, at: string): Promise<WorkingMemoryEntry[]>;
  deleteEntry(sessionId: string, key: string): Promise<boolean>;
}

export type NewChatMessage = Pick<ChatMessage, 'id' | 'role' | 'content' | 'metadata' | 'created_at'>;

export interface ThreadStore {
  /** Inserts unless the id is taken (two creates of one id at once: one inserts). Whether it inserted. */
  create(thread: ChatThread): Promise<boolean>;
  get(workspaceId: string, id: string): Promise<ChatThread | null>;
  /** Threads not expired at `activeAt`, most recently active first. */
  list(
    workspaceId: string,
    options: { activeAt: string; userId?: string; updatedAfter?: string; limit: number; offset: number },
  ): Promise<{ threads: ChatThread[]; total: number }>;
  update(
    workspaceId: string,
    id: string,
    patch: Partial<Pick<ChatThread, 'title' | 'metadata' | 'updated_at'>>,
  ): Promise<ChatThread | null>;
  /** Removes the thread and its messages. */
  delete(workspaceId: string, id: string): Promise<boolean>;
  /**
   * Gives the messages the thread's next indexes, in order, and stores them; null when the thread does not exist.
   * Run it in a transaction: the thread row's counter update is what keeps concurrent appends apart.
   */
  appendMessages(
    workspaceId: string,
    threadId: string,
    messages: readonly NewChatMessage[],
  ): Promise<ChatMessage[] | null>;
  listMessages(
    workspaceId: string,
    threadId: string,
    options: { afterIndex?: number; order: 'asc' | 'desc'; limit: number; offset: number },
  ): Promise<{ messages: ChatMessage[]; total: number }>;
  deleteMessage(workspaceId: string, threadId: string, messageId: string, at: string): Promise<boolean>;
  /** Moves last_decomposed_index from `expected` to `to`; false when another run moved it first. */
  markDecomposed(workspaceId: string, threadId: string, expected: number, to: number, at: string): Promise<boolean>;
  /** Deletes up to `limit` threads that expired at or before `at`, with their messages; returns how many. */
  deleteExpired(at: string, limit: number): Promise<number>;
}

/** An unresolved contradiction's two memories: `later` (memory_b) says otherwise than `earlier` (memory_a). */
export interface ContradictedPair {
  earlier: string;
  later: string;
}

export interface ContradictionStore {
  /** Records the pair unless it is already recorded, in either order; true when inserted. */
  insert(contradiction: Contradiction): Promise<boolean>;
  /** `insert` of each in order, in a few statements; the ones recorded. */
  insertMany(contradictions: readonly Contradiction[]): Promise<Contradiction[]>;
  get(workspaceId: string, id: string): Promise<Contradiction | null>;
  /** Unresolved ones, newest first. */
  listUnresolved(workspaceId: string, limit: number): Promise<Contradiction[]>;
  countUnresolved(workspaceId: string): Promise<number>;
  /** The unresolved ones either of whose memories is one of `memoryIds`. */
  unresolvedOf(workspaceId: string, memoryIds: readonly string[]): Promise<Contradiction[]>;
  /**
   * The unresolved pairs whose earlier memory is one of `earlierIds`, each with the later memory that contradicts it,
   * while that one is active.
   */
  laterContradicting(workspaceId: string, earlierIds: readonly string[]): Promise<ContradictedPair[]>;
  /** Sets resolution and resolved_at if it is still unresolved; null otherwise (already resolved, or unknown). */
  claimResolution(
    workspaceId: string,
    id: string,
    resolution: ContradictionResolution,
    at: string,
  ): Promise<Contradiction | null>;
  update(
    workspaceId: string,
    id: string,
    patch: Partial<Pick<Contradiction, 'resolved_at' | 'resolution' | 'merged_memory_id'>>,
  ): Promise<Contradiction | null>;
}

export interface EntityStore {
  getCard(workspaceId: string, entityId: string): Promise<CachedEntityCard | null>;
  putCard(record: CachedEntityCard): Promise<void>;
  /** Changes whenever an active memory about the subject is added, changed or removed. */
  subjectFingerprint(workspaceId: string, subjectId: string): Promise<string>;
}

export interface KnowledgebaseStore {
  getMeta(workspaceId: string): Promise<KnowledgebaseMeta | null>;
  putMeta(meta: KnowledgebaseMeta): Promise<void>;
  /** Articles in listing order (`position`, then id). */
  listArticles(
    workspaceId: string,
    page: { limit: number; offset: number; kind?: ArticleKind | undefined },
  ): Promise<KnowledgebaseArticle[]>;
  countArticles(workspaceId: string, kind?: ArticleKind): Promise<number>;
  getArticle(workspaceId: string, id: string): Promise<KnowledgebaseArticle | null>;
  /** Inserts or replaces the article, and the record of which memories it cites. */
  putArticle(article: KnowledgebaseArticle): Promise<void>;
  deleteArticles(workspaceId: string, ids: readonly string[]): Promise<number>;
  /** Articles that cite the memory, in listing order. */
  articlesCiting(
    workspaceId: string,
    memoryId: string,
  ): Promise<Array<Pick<KnowledgebaseArticle, 'id' | 'title' | 'kind'>>>;
  createJob(job: KnowledgebaseJob): Promise<void>;
  getJob(workspaceId: string, id: string): Promise<KnowledgebaseJob | null>;
  updateJob(
    id: string,
    patch: Partial<Pick<KnowledgebaseJob, 'status' | 'result' | 'error' | 'updated_at'>>,
  ): Promise<KnowledgebaseJob | null>;
}

/** A stretch of a page's transcript that the page is searched by, with its vector. */
export interface PagePassage {
  text: string;
  embedding: Float32Array;
}

export interface NewDocumentPage extends DocumentPage {
  /** In page order; none for a page without text. */
  passages: PagePassage[];
}

/** Where a passage is: its page and its place in it. */
export interface PassageKey {
  page_id: string;
  passage_no: number;
}

/** A page found by page search: scored by its best passage, which is returned with it. */
export interface PageMatch {
  page: DocumentPage;
  score: number;
  passage: { index: number; text: string };
}

export type IngestionJobPatch = Partial<
  Omit<IngestionJob, 'id' | 'workspace_id' | 'document_id' | 'extraction_options' | 'created_at'>
>;

/** A memory made from a chunk of a document; `job_id` is the run that last produced it. */
export interface DocumentMemoryLink {
  document_id: string;
  memory_id: string;
  workspace_id: string;
  job_id: string;
  page_no: number;
  chunk_index: number;
}

export interface DocumentStore {
  insert(document: DocumentRecord): Promise<void>;
  get(workspaceId: string, id: string): Promise<StoredDocument | null>;
  /** Newest first; `status` filters by the current job's status. */
  list(
    workspaceId: string,
    options: {
      status?: IngestionStatus | undefined;
      documentType?: DocumentType | undefined;
      limit: number;
      offset: number;
    },
  ): Promise<{ documents: StoredDocument[]; total: number }>;
  update(
    workspaceId: string,
    id: string,
    patch: Partial<
      Pick<DocumentRecord, 'current_job_id' | 'extraction_options' | 'context_id' | 'importance' | 'updated_at'>
    >,
  ): Promise<void>;
  /** Removes the document with its bytes, pages, jobs and memory links (not the memories). */
  delete(workspaceId: string, id: string): Promise<boolean>;
  /**
   * Deletes the document unless a memory is linked to it, checked with the document held (in a transaction: a link
   * being written meanwhile either came first, and it is `linked`, or fails on the deleted document).
   */
  deleteUnlinked(workspaceId: string, id: string): Promise<'deleted' | 'linked' | 'absent'>;
  putOriginal(workspaceId: string, documentId: string, bytes: Uint8Array): Promise<void>;
  getOriginal(workspaceId: string, documentId: string): Promise<Uint8Array | null>;
  deleteOriginal(workspaceId: string, documentId: string): Promise<void>;
  /** Replaces every page of the document. */
  replacePages(workspaceId: string, documentId: string, pages: readonly NewDocumentPage[]): Promise<void>;
  /** In page order. */
  listPages(
    workspaceId: string,
    documentId: string,
    page: { limit?: number; offset?: number },
  ): Promise<{ pages: DocumentPage[]; total: number }>;
  getPage(workspaceId: string, documentId: string, pageId: string): Promise<DocumentPage | null>;
  /**
   * The `k` pages whose best passage is nearest to the vector (max-sim: a page scores its best passage's cosine
   * similarity; exact scan), best first, each with that passage; optionally within the given documents.
   */
  searchPages(
    workspaceId: string,
    vector: Float32Array,
    options: { k: number; documentIds?: readonly string[] | undefined },
  ): Promise<PageMatch[]>;
  /** Every workspace's passages after the given one, in (page_id, passage_no) order (re-embedding walks them). */
  scanPassages(after: PassageKey | null, limit: number): Promise<Array<PassageKey & { text: string }>>;
  setPassageEmbeddings(entries: ReadonlyArray<PassageKey & { embedding: Float32Array }>): Promise<void>;
  /** Records links; an existing link is moved to the new job (with its new page and chunk) when another job made it. */
  linkMemories(links: readonly DocumentMemoryLink[]): Promise<void>;
  /** In page and chunk order; `exceptJobId` keeps only links made by other jobs. */
  linkedMemoryIds(
    workspaceId: string,
    documentId: string,
    options: { limit?: number; offset?: number; exceptJobId?: string },
  ): Promise<{ ids: string[]; total: number }>;
  createJob(job: IngestionJob): Promise<void>;
  getJob(workspaceId: string, id: string): Promise<IngestionJob | null>;
  /** Newest first. */
  listJobs(
    workspaceId: string,
    options: { status?: IngestionStatus | undefined; documentId?: string | undefined; limit: number; offset: number },
  ): Promise<{ jobs: IngestionJob[]; total: number }>;
  /** Applies the patch if the job's status is one of `onlyFrom` (any status when absent); null otherwise or when absent. */
  updateJob(
    workspaceId: string,
    id: string,
    patch: IngestionJobPatch,
    onlyFrom?: readonly IngestionStatus[],
  ): Promise<IngestionJob | null>;
}

/** The saved state of one session's Python sandbox (opaque bytes) and what the sandbox says about it. */
export interface SandboxCheckpoint {
  session_id: string;
  workspace_id: string;
  data: Uint8Array;
  metadata: JsonObject;
  updated_at: string;
  /** A token written with the checkpoint ('' for those written before revisions existed). */
  revision: string;
}

/** The kinds of record a request may address by id alone, each kept in one table with a `workspace_id`. */
export type LocatableKind =
  | 'memory'
  | 'association'
  | 'session'
  | 'thread'
  | 'document'
  | 'ingestion_job'
  | 'knowledgebase_job'
  | 'skill'
  | 'mcp_server'
  | 'data_provider'
  | 'contradiction';

/** Where a record lives when only its id is known. */
export interface ObjectLocator {
  /**
   * The workspaces holding a record of that kind and id: none when it does not exist, one as a rule, several only
   * for records whose ids are unique per workspace (threads). `null` stands for an entry above every workspace.
   */
  workspacesOf(kind: LocatableKind, id: string): Promise<Array<string | null>>;
}

export interface SandboxCheckpointStore {
  /**
   * Stores the session's checkpoint in the session's workspace as `revision`, replacing the one stored only if that
   * is `replaces` (null: only if none is stored). False, and nothing stored, when the session is gone or the stored
   * checkpoint is another (a node moved the session on meanwhile).
   */
  put(
    sessionId: string,
    data: Uint8Array,
    metadata: JsonObject,
    at: string,
    revision: string,
    replaces: string | null,
  ): Promise<boolean>;
  get(sessionId: string): Promise<SandboxCheckpoint | null>;
  /** The revision of the session's checkpoint, without its data; null when it has none. */
  revision(sessionId: string): Promise<string | null>;
  delete(sessionId: string): Promise<boolean>;
}

export interface ApplicationStore {
  create(application: Application): Promise<void>;
  get(id: string): Promise<Application | null>;
  /** Oldest first; `linkedTo` keeps those linked to any of these workspaces. */
  list(options: {
    limit: number;
    offset: number;
    linkedTo?: readonly string[];
  }): Promise<{ applications: Application[]; total: number }>;
  update(id: string, patch: Partial<Omit<Application, 'id' | 'tenant_id' | 'created_at'>>): Promise<Application | null>;
  /** Removes the application and its links. */
  delete(id: string): Promise<boolean>;
  getLink(applicationId: string, workspaceId: string): Promise<ApplicationLink | null>;
  /** Inserts the link unless the application is linked to the workspace already; says whether it did. */
  createLink(link: ApplicationLink): Promise<boolean>;
  /** Sets what the patch gives of an existing link; null if there is none. */
  updateLink(
    applicationId: string,
    workspaceId: string,
    patch: Partial<Pick<ApplicationLink, 'enabled' | 'config_overrides'>> & Pick<ApplicationLink, 'updated_at'>,
  ): Promise<ApplicationLink | null>;
  deleteLink(applicationId: string, workspaceId: string): Promise<boolean>;
  /** The workspace's links with their applications, oldest application first. */
  listLinked(workspaceId: string): Promise<Array<{ application: Application; link: ApplicationLink }>>;
}

/** Who looks at scoped registry entries: those of the workspace, of the user, and those above both. */
export interface RegistryViewer {
  workspaceId: string;
  userId: string | null;
}

/** Where a scoped entry (skill, MCP server) lives: its scope and that scope's owners (null above it). */
export interface ScopedOwner<S extends string = string> {
  scope: S;
  workspace_id: string | null;
  user_id: string | null;
}

/** Narrows a listing of visible entries. */
export interface ScopedFilter {
  names?: readonly string[];
  scope?: string;
}

/** The manifest of a skill is its file at this path. */
export const SKILL_MANIFEST_PATH = 'SKILL.md';

export interface SkillFile extends SkillFileInfo {
  content: Buffer;
}

/** What every scoped registry table (skills, MCP servers) answers alike; `P` is what a change of an entry may set. */
export interface ScopedStore<E, P> {
  get(id: string): Promise<E | null>;
  /** The entry, held until the transaction ends: another change of it waits (one in a transaction's storage). */
  getForChange(id: string): Promise<E | null>;
  /** Entries the viewer can see, by name then scope. */
  listVisible(viewer: RegistryViewer, filter?: ScopedFilter): Promise<E[]>;
  update(id: string, patch: P): Promise<E | null>;
  /** Removes the entry and what belongs to it. */
  delete(id: string): Promise<boolean>;
}

export type SkillPatch = Partial<Pick<Skill, 'version' | 'description' | 'source_mode' | 'metadata' | 'updated_at'>>;

export interface SkillStore extends ScopedStore<Skill, SkillPatch> {
  /** Stores the skill with its files (SKILL.md among them) unless its name is taken in its scope: false then. */
  create(skill: Omit<Skill, 'manifest'>, files: readonly SkillFile[]): Promise<boolean>;
  /** By path. */
  listFiles(skillId: string): Promise<SkillFileInfo[]>;
  getFile(skillId: string, path: string): Promise<SkillFile | null>;
  /** Inserts or replaces each file (created_at of a replaced file stays). */
  putFiles(skillId: string, files: readonly SkillFile[]): Promise<void>;
  deleteFiles(skillId: string, paths: readonly string[]): Promise<number>;
}

export type McpServerPatch = Partial<
  Pick<
    McpServerEntry,
    | 'description'
    | 'transport'
    | 'command'
    | 'args'
    | 'url'
    | 'env_keys'
    | 'header_keys'
    | 'sealed_secrets'
    | 'source_mode'
    | 'enabled'
    | 'metadata'
    | 'last_synced_at'
    | 'updated_at'
  >
>;

export interface McpServerStore extends ScopedStore<McpServerEntry, McpServerPatch> {
  /** Stores the entry unless its name is taken in its scope: false then. */
  create(entry: McpServerEntry): Promise<boolean>;
}

export interface DataProviderStore {
  create(provider: DataProvider): Promise<void>;
  get(workspaceId: string, id: string): Promise<DataProvider | null>;
  /** Oldest first. */
  list(
    workspaceId: string,
    page: { limit: number; offset: number },
  ): Promise<{ providers: DataProvider[]; total: number }>;
  update(
    workspaceId: string,
    id: string,
    patch: Partial<Omit<DataProvider, 'id' | 'workspace_id' | 'created_at'>>,
  ): Promise<DataProvider | null>;
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export interface MetaStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
}

/** Whose records an erasure removes: everything that carries this user id, or this subject id. */
export interface PersonSelector {
  kind: SelectorKind;
  id: string;
}

/** What one workspace holds of a person, by id (see `ErasureStore.find`). */
export interface PersonalRecords {
  /** Memories that carry the id, and every memory derived from them (facts, insights), transitively. */
  memoryIds: string[];
  /** Subjects of those memories: their entity cards quote them. */
  subjectIds: string[];
  /** Sessions of the user (sessions have no subject). */
  sessionIds: string[];
  threadIds: string[];
}

/**
 * The one place that knows every table where a person's id or data can be: erasure finds a person's records and
 * removes them with everything that quotes them. Memories themselves go through `MemoryStore.hardDelete` (their
 * search entries follow it); the rows that cascade from them are counted here first.
 */
export interface ErasureStore {
  find(workspaceId: string, selector: PersonSelector): Promise<PersonalRecords>;
  /**
   * Removes, in `workspaceId`, what quotes or belongs to `records` apart from the memories themselves: knowledgebase
   * articles citing the memories (and the index that lists them), entity cards of their subjects (and of the
   * selector's subject), the sessions with their working memory and sandbox checkpoints, the threads with their
   * messages, and the user's registry entries of this workspace. Counts too the links that go with the memories.
   */
  removeAround(
    workspaceId: string,
    selector: PersonSelector,
    records: PersonalRecords,
  ): Promise<Omit<ErasureCounts, 'memories'>>;
  /** Leaves no bytes of removed memories in the engine's search structures (after `MemoryStore.hardDelete`). */
  purgeSearchEntries(): Promise<void>;
  /** The user's registry entries above any workspace (user-scoped skills and MCP servers). */
  removeTenantLevel(selector: PersonSelector): Promise<Pick<ErasureCounts, 'skills' | 'mcp_servers'>>;
  recordAudit(audit: ErasureAudit): Promise<void>;
  /** Newest first. */
  listAudits(limit: number): Promise<ErasureAudit[]>;
}

export interface Storage {
  readonly dialect: 'sqlite' | 'postgres';
  readonly meta: MetaStore;
  readonly workspaces: WorkspaceStore;
  readonly contexts: ContextStore;
  readonly memories: MemoryStore;
  readonly associations: AssociationStore;
  readonly tasks: TaskStore;
  readonly apiKeys: ApiKeyStore;
  readonly sessions: SessionStore;
  readonly threads: ThreadStore;
  readonly contradictions: ContradictionStore;
  readonly entities: EntityStore;
  readonly knowledgebase: KnowledgebaseStore;
  readonly applications: ApplicationStore;
  readonly skills: SkillStore;
  readonly mcpServers: McpServerStore;
  readonly dataProviders: DataProviderStore;
  readonly documents: DocumentStore;
  readonly sandboxCheckpoints: SandboxCheckpointStore;
  readonly locator: ObjectLocator;
  readonly erasure: ErasureStore;
  /** Runs `work` in one database transaction; everything done through `tx` commits or rolls back together. */
  transaction<T>(work: (tx: Storage) => Promise<T>): Promise<T>;
  /** Resolves once every write committed so far would survive power loss; awaited before acknowledging a write. */
  syncWrites(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
