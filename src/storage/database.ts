import type { ColumnType, Generated } from 'kysely';
import type { ApiKey } from '../schemas/api-key.js';
import type { Application, ApplicationLink } from '../schemas/application.js';
import type { Association } from '../schemas/association.js';
import type { Contradiction } from '../schemas/contradiction.js';
import type { DataProvider } from '../schemas/data-provider.js';
import type { DocumentPage, DocumentRecord, IngestionJob } from '../schemas/document.js';
import type { CachedEntityCard } from '../schemas/entity.js';
import type { ErasureAudit } from '../schemas/erasure.js';
import type { KnowledgebaseArticle, KnowledgebaseJob, KnowledgebaseMeta } from '../schemas/knowledgebase.js';
import type { McpServerEntry } from '../schemas/mcp-server.js';
import type { Memory } from '../schemas/memory.js';
import type { Session, WorkingMemoryEntry } from '../schemas/session.js';
import type { Skill, SkillFileInfo } from '../schemas/skill.js';
import type { ChatMessage, ChatThread } from '../schemas/thread.js';
import type { Context, Workspace } from '../schemas/workspace.js';

/**
 * Table shapes as both drivers see them. JSON, booleans and timestamps come back in driver-specific
 * forms (text vs jsonb, 0/1 vs boolean, text vs Date); `rows.ts` turns them into records.
 */
export type Json = ColumnType<unknown, string, string>;
export type NullableJson = ColumnType<unknown, string | null, string | null>;
export type Timestamp = ColumnType<string | Date, string, string>;
export type NullableTimestamp = ColumnType<string | Date | null, string | null, string | null>;
export type Bool = ColumnType<number | boolean, number, number>;

/**
 * The column a record's field is stored in: `*_at` fields are timestamps, booleans are 0/1 (or boolean), strings
 * and numbers stay as they are (an enum is plain text), everything else is JSON (text or jsonb), in a nullable
 * column when the field may be null.
 */
type ColumnOf<Name, Value> = Name extends `${string}_at`
  ? null extends Value
    ? NullableTimestamp
    : Timestamp
  : [Value] extends [boolean]
    ? Bool
    : [Value] extends [string | number | null]
      ? Value extends string
        ? string
        : Value
      : null extends Value
        ? unknown extends Value
          ? Json
          : NullableJson
        : Json;

/**
 * A table derived from a record declared once in src/schemas: every field a column in its stored form. A table
 * adds only what the record does not show (keys of its parent, insertion order, counters).
 */
export type TableOf<R> = { [K in keyof R]: ColumnOf<K, R[K]> };

export interface MetaTable {
  key: string;
  value: string;
}

export type WorkspacesTable = TableOf<Workspace> & {
  /** Created on first use by a call that has not finished, and used by no other call yet (migration 0023). */
  provisional: ColumnType<number | boolean, number | undefined, number>;
};

export interface MemoryVersionsTable {
  workspace_id: string;
  /** Postgres bigint: the driver returns it as a string. */
  version: ColumnType<number | string, number, number>;
}

export type ContextsTable = TableOf<Context>;

/** `seq`: insertion order, the cursor of scans and the key of its vector. */
export type MemoriesTable = TableOf<Memory> & {
  seq: Generated<number>;
  /** The first and last instant of the days its text names (migration 0024; `NewMemory.mentions`). */
  mentioned_from: NullableTimestamp;
  mentioned_to: NullableTimestamp;
  /** Whether they were read: false only for memories written before the columns existed, until the backfill. */
  mentions_read: ColumnType<number | boolean, number | undefined, number>;
  /** What the keyword index reads instead of the content, null where it reads the content (keyword-text.ts, 0025). */
  keyword_text: string | null;
};

export interface MemoryVectorsTable {
  seq: number;
  workspace_id: string;
  /** SQLite: little-endian float32 BLOB. Postgres: pgvector `vector`, written as '[x,y,…]'. */
  embedding: ColumnType<Buffer | string, Buffer | string, Buffer | string>;
}

export type AssociationsTable = TableOf<Association>;

export interface TasksTable {
  id: Generated<number>;
  kind: string;
  workspace_id: string | null;
  payload: Json;
  status: string;
  attempts: number;
  run_at: Timestamp;
  lease_until: NullableTimestamp;
  last_error: string | null;
  dedupe_key: string | null;
  created_at: Timestamp;
}

export type ApiKeysTable = TableOf<ApiKey>;

export type SessionsTable = TableOf<Session>;

export type WorkingMemoryTable = TableOf<WorkingMemoryEntry> & { session_id: string };

/** `next_message_index`: the index the next appended message gets (indexes are never reused). */
export type ChatThreadsTable = TableOf<ChatThread> & { next_message_index: number };

export type ChatMessagesTable = TableOf<ChatMessage>;

export type ContradictionsTable = TableOf<Contradiction>;

export type EntityCardsTable = TableOf<CachedEntityCard>;

/** `since` is a timestamp column without the `_at` that tells TableOf so. */
export type KnowledgebasesTable = Omit<TableOf<KnowledgebaseMeta>, 'since'> & { since: NullableTimestamp };

export type KbArticlesTable = TableOf<KnowledgebaseArticle>;

export interface KbArticleMemoriesTable {
  workspace_id: string;
  article_id: string;
  memory_id: string;
}

export type KbJobsTable = TableOf<KnowledgebaseJob>;

export type DocumentsTable = TableOf<DocumentRecord>;

export interface DocumentOriginalsTable {
  document_id: string;
  workspace_id: string;
  bytes: Buffer;
}

export type DocumentPagesTable = TableOf<DocumentPage>;

/** The passages a page is searched by, one vector each. */
export interface DocumentPassagesTable {
  page_id: string;
  passage_no: number;
  workspace_id: string;
  document_id: string;
  text: string;
  /** As in memory_vectors: a float32 BLOB (SQLite) or a pgvector `vector` (Postgres). */
  embedding: ColumnType<Buffer | string, Buffer | string, Buffer | string>;
}

export type IngestionJobsTable = TableOf<IngestionJob>;

export interface DocumentMemoriesTable {
  document_id: string;
  memory_id: string;
  workspace_id: string;
  job_id: string;
  page_no: number;
  chunk_index: number;
}

export interface SandboxCheckpointsTable {
  session_id: string;
  workspace_id: string;
  /** SQLite: BLOB. Postgres: bytea. Both drivers return a Buffer. */
  data: ColumnType<Buffer, Buffer, Buffer>;
  metadata: Json;
  updated_at: Timestamp;
  /** '' for checkpoints written before revisions existed. */
  revision: string;
}

export type ApplicationsTable = TableOf<Application>;

export type ApplicationWorkspacesTable = TableOf<ApplicationLink>;

/** What the unique (scope_key, name) constraint of a scoped registry table (skills, MCP servers) compares. */
interface ScopeKeyColumn {
  scope_key: string;
}

/** A skill's manifest is its SKILL.md file row, not a column. */
export type SkillsTable = TableOf<Omit<Skill, 'manifest'>> & ScopeKeyColumn;

export type SkillFilesTable = TableOf<SkillFileInfo> & {
  skill_id: string;
  /** SQLite: BLOB. Postgres: bytea. Both drivers return a Buffer. */
  content: ColumnType<Buffer, Buffer, Buffer>;
};

export type McpServersTable = TableOf<McpServerEntry> & ScopeKeyColumn;

export type DataProvidersTable = TableOf<DataProvider>;

export type ErasuresTable = TableOf<ErasureAudit>;

export interface Database {
  meta: MetaTable;
  workspaces: WorkspacesTable;
  memory_versions: MemoryVersionsTable;
  contexts: ContextsTable;
  memories: MemoriesTable;
  memory_vectors: MemoryVectorsTable;
  associations: AssociationsTable;
  tasks: TasksTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  working_memory: WorkingMemoryTable;
  chat_threads: ChatThreadsTable;
  chat_messages: ChatMessagesTable;
  contradictions: ContradictionsTable;
  entity_cards: EntityCardsTable;
  knowledgebases: KnowledgebasesTable;
  kb_articles: KbArticlesTable;
  kb_article_memories: KbArticleMemoriesTable;
  kb_jobs: KbJobsTable;
  applications: ApplicationsTable;
  application_workspaces: ApplicationWorkspacesTable;
  skills: SkillsTable;
  skill_files: SkillFilesTable;
  mcp_servers: McpServersTable;
  data_providers: DataProvidersTable;
  documents: DocumentsTable;
  document_originals: DocumentOriginalsTable;
  document_pages: DocumentPagesTable;
  document_passages: DocumentPassagesTable;
  ingestion_jobs: IngestionJobsTable;
  document_memories: DocumentMemoriesTable;
  sandbox_checkpoints: SandboxCheckpointsTable;
  erasures: ErasuresTable;
}
