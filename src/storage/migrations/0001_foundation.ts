import { sql, type Kysely } from 'kysely';
import { columnTypes, type SqlDialect } from './column-types.js';

/** Workspaces, contexts, memories with their vector and keyword entries, associations, tasks, API keys. */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  const t = columnTypes(dialect);
  const pg = dialect === 'postgres';
  // In `public`, so that every schema on the search path sees the type.
  if (pg) await sql`CREATE EXTENSION IF NOT EXISTS vector SCHEMA public`.execute(db);

  await db.schema
    .createTable('meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('settings', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('contexts')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('settings', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('contexts_pk', ['workspace_id', 'id'])
    .execute();

  await db.schema
    .createTable('memories')
    .addColumn('seq', pg ? 'bigint' : 'integer', (c) =>
      pg ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('subtype', 'text')
    .addColumn('importance', t.float, (c) => c.notNull())
    .addColumn('tags', t.json, (c) => c.notNull())
    .addColumn('metadata', t.json, (c) => c.notNull())
    .addColumn('abstract', 'text')
    .addColumn('overview', 'text')
    .addColumn('session_id', 'text')
    .addColumn('access_count', 'integer', (c) => c.notNull())
    .addColumn('last_accessed_at', t.timestamp)
    .addColumn('decay_factor', t.float, (c) => c.notNull())
    .addColumn('source_scope', 'text')
    .addColumn('source_memory_id', 'text')
    .addColumn('pinned', t.bool, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('deleted_at', t.timestamp)
    .addColumn('archived_at', t.timestamp)
    .addColumn('observer_id', 'text')
    .addColumn('subject_id', 'text')
    .addColumn('occurred_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('memories_ws_created')
    .on('memories')
    .columns(['workspace_id', 'status', 'created_at'])
    .execute();
  await db.schema.createIndex('memories_ws_hash').on('memories').columns(['workspace_id', 'content_hash']).execute();
  await db.schema.createIndex('memories_ws_subject').on('memories').columns(['workspace_id', 'subject_id']).execute();
  await db.schema.createIndex('memories_ws_session').on('memories').columns(['workspace_id', 'session_id']).execute();
  await db.schema.createIndex('memories_source').on('memories').column('source_memory_id').execute();

  await db.schema
    .createTable('memory_vectors')
    .addColumn('seq', pg ? 'bigint' : 'integer', (c) => c.primaryKey().references('memories.seq').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('embedding', pg ? sql`vector` : 'blob', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('memory_vectors_ws').on('memory_vectors').column('workspace_id').execute();

  if (pg) {
    await sql`ALTER TABLE memories ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED`.execute(
      db,
    );
    await sql`CREATE INDEX memories_search_tsv ON memories USING gin (search_tsv)`.execute(db);
  } else {
    // Contentless: the text lives in `memories`; rowid = memories.seq.
    await sql`CREATE VIRTUAL TABLE memory_fts USING fts5(content, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`.execute(
      db,
    );
  }

  await db.schema
    .createTable('associations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('source_id', 'text', (c) => c.notNull().references('memories.id').onDelete('cascade'))
    .addColumn('target_id', 'text', (c) => c.notNull().references('memories.id').onDelete('cascade'))
    .addColumn('relationship', 'text', (c) => c.notNull())
    .addColumn('strength', t.float, (c) => c.notNull())
    .addColumn('metadata', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('associations_edge', ['source_id', 'target_id', 'relationship'])
    .execute();
  await db.schema.createIndex('associations_target').on('associations').column('target_id').execute();
  await db.schema.createIndex('associations_ws').on('associations').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('tasks')
    .addColumn('id', pg ? 'bigint' : 'integer', (c) =>
      pg ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('cascade'))
    .addColumn('payload', t.json, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', t.timestamp, (c) => c.notNull())
    .addColumn('lease_until', t.timestamp)
    .addColumn('last_error', 'text')
    .addColumn('dedupe_key', 'text', (c) => c.unique())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tasks_due').on('tasks').columns(['status', 'run_at']).execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('workspaces', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_used_at', t.timestamp)
    .execute();
}
