import type { ColumnType, Generated } from 'kysely';

/**
 * Table shapes as both drivers see them. JSON, booleans and timestamps come back in driver-specific
 * forms (text vs jsonb, 0/1 vs boolean, text vs Date); `rows.ts` turns them into records.
 */
export type Json = ColumnType<unknown, string, string>;
export type Timestamp = ColumnType<string | Date, string, string>;
export type NullableTimestamp = ColumnType<string | Date | null, string | null, string | null>;
export type Bool = ColumnType<number | boolean, number, number>;

export interface MetaTable {
  key: string;
  value: string;
}

export interface WorkspacesTable {
  id: string;
  tenant_id: string;
  name: string;
  settings: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MemoryVersionsTable {
  workspace_id: string;
  /** Postgres bigint: the driver returns it as a string. */
  version: ColumnType<number | string, number, number>;
}

export interface ContextsTable {
  workspace_id: string;
  id: string;
  name: string;
  description: string | null;
  settings: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MemoriesTable {
  seq: Generated<number>;
  id: string;
  workspace_id: string;
  tenant_id: string;
  context_id: string;
  user_id: string | null;
  content: string;
  content_hash: string;
  type: string;
  subtype: string | null;
  importance: number;
  tags: Json;
  metadata: Json;
  abstract: string | null;
  overview: string | null;
  session_id: string | null;
  access_count: number;
  last_accessed_at: NullableTimestamp;
  decay_factor: number;
  source_scope: string | null;
  source_memory_id: string | null;
  pinned: Bool;
  status: string;
  deleted_at: NullableTimestamp;
  archived_at: NullableTimestamp;
  observer_id: string | null;
  subject_id: string | null;
  occurred_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MemoryVectorsTable {
  seq: number;
  workspace_id: string;
  /** SQLite: little-endian float32 BLOB. Postgres: pgvector `vector`, written as '[x,y,…]'. */
  embedding: ColumnType<Buffer | string, Buffer | string, Buffer | string>;
}

export interface AssociationsTable {
  id: string;
  workspace_id: string;
  source_id: string;
  target_id: string;
  relationship: string;
  strength: number;
  metadata: Json;
  created_at: Timestamp;
}

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

export interface ApiKeysTable {
  id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  workspaces: Json;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}

export interface SessionsTable {
  id: string;
  workspace_id: string;
  tenant_id: string;
  context_id: string;
  user_id: string | null;
  metadata: Json;
  ttl_seconds: number;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WorkingMemoryTable {
  session_id: string;
  key: string;
  value: Json;
  ttl_seconds: number | null;
  expires_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ChatThreadsTable {
  workspace_id: string;
  id: string;
  tenant_id: string;
  user_id: string | null;
  context_id: string;
  observer_id: string | null;
  subject_id: string | null;
  title: string | null;
  metadata: Json;
  message_count: number;
  next_message_index: number;
  last_decomposed_index: number;
  last_decomposed_at: NullableTimestamp;
  expires_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ChatMessagesTable {
  id: string;
  workspace_id: string;
  thread_id: string;
  message_index: number;
  role: string;
  content: Json;
  metadata: Json;
  created_at: Timestamp;
}

export interface ContradictionsTable {
  id: string;
  workspace_id: string;
  memory_a_id: string;
  memory_b_id: string;
  contradiction_type: string;
  confidence: number;
  detection_method: string;
  explanation: string | null;
  detected_at: Timestamp;
  resolved_at: NullableTimestamp;
  resolution: string | null;
  merged_memory_id: string | null;
}

export interface EntityCardsTable {
  workspace_id: string;
  entity_id: string;
  card: Json;
  fingerprint: string;
  generated_at: Timestamp;
}

export interface KnowledgebasesTable {
  workspace_id: string;
  generated_at: Timestamp;
  context_id: string | null;
  since: NullableTimestamp;
  generator: string;
  stats: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface KbArticlesTable {
  workspace_id: string;
  id: string;
  kind: string;
  title: string;
  summary: string;
  body: string;
  memory_ids: Json;
  links: Json;
  community_id: number | null;
  signature: string;
  generator: string;
  metadata: Json;
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface KbArticleMemoriesTable {
  workspace_id: string;
  article_id: string;
  memory_id: string;
}

export interface KbJobsTable {
  id: string;
  workspace_id: string;
  status: string;
  options: Json;
  result: ColumnType<unknown, string | null, string | null>;
  error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DocumentsTable {
  id: string;
  workspace_id: string;
  tenant_id: string;
  filename: string;
  mime_type: string;
  document_type: string;
  size_bytes: number;
  content_hash: string;
  context_id: string;
  importance: number;
  tags: Json;
  metadata: Json;
  extraction_options: Json;
  retain_original: Bool;
  current_job_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DocumentOriginalsTable {
  document_id: string;
  workspace_id: string;
  bytes: Buffer;
}

export interface DocumentPagesTable {
  id: string;
  workspace_id: string;
  document_id: string;
  page_no: number;
  transcript: string;
  transcript_model: string;
  transcript_confidence: number | null;
  created_at: Timestamp;
}

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

export interface IngestionJobsTable {
  id: string;
  workspace_id: string;
  document_id: string;
  status: string;
  extraction_options: Json;
  pages_total: number | null;
  chunks_total: number | null;
  chunks_done: number;
  memories_linked: number;
  chunks_deduplicated: number;
  error_code: string | null;
  error_message: string | null;
  page_errors: Json;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  updated_at: Timestamp;
}

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

export interface ApplicationsTable {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  app_type: string;
  enabled: Bool;
  config: Json;
  metadata: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ApplicationWorkspacesTable {
  application_id: string;
  workspace_id: string;
  enabled: Bool;
  config_overrides: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Columns every scoped registry entry has (skills, MCP servers). */
interface ScopedColumns {
  id: string;
  tenant_id: string;
  scope: string;
  scope_key: string;
  workspace_id: string | null;
  user_id: string | null;
  name: string;
}

export interface SkillsTable extends ScopedColumns {
  version: string | null;
  description: string | null;
  source_mode: string;
  metadata: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SkillFilesTable {
  skill_id: string;
  path: string;
  /** SQLite: BLOB. Postgres: bytea. Both drivers return a Buffer. */
  content: ColumnType<Buffer, Buffer, Buffer>;
  size: number;
  sha256: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface McpServersTable extends ScopedColumns {
  description: string | null;
  transport: string;
  command: string | null;
  args: Json;
  url: string | null;
  env_keys: Json;
  header_keys: Json;
  sealed_secrets: string | null;
  source_mode: string;
  enabled: Bool;
  metadata: Json;
  last_synced_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DataProvidersTable {
  id: string;
  workspace_id: string;
  name: string;
  provider_type: string;
  connection_args: Json;
  sealed_args: string | null;
  schedule: string | null;
  metadata: Json;
  last_synced_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ErasuresTable {
  id: string;
  erased_at: Timestamp;
  requested_by: string;
  selector_kind: string;
  selector_hash: string;
  workspaces: Json;
  removed: Json;
}

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
