import type { Kysely } from 'kysely';
import { columnTypes, type SqlDialect } from './column-types.js';

/** Chat threads and their messages, contradictions between memories, cached entity cards. */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  const t = columnTypes(dialect);

  // Thread ids may be chosen by clients, so they are unique per workspace, not globally.
  await db.schema
    .createTable('chat_threads')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('observer_id', 'text')
    .addColumn('subject_id', 'text')
    .addColumn('title', 'text')
    .addColumn('metadata', t.json, (c) => c.notNull())
    .addColumn('message_count', 'integer', (c) => c.notNull())
    // Never goes down (deleting a message leaves a gap): indexes stay unique and increasing.
    .addColumn('next_message_index', 'integer', (c) => c.notNull())
    .addColumn('last_decomposed_index', 'integer', (c) => c.notNull())
    .addColumn('last_decomposed_at', t.timestamp)
    .addColumn('expires_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('chat_threads_pk', ['workspace_id', 'id'])
    .execute();
  await db.schema
    .createIndex('chat_threads_ws_updated')
    .on('chat_threads')
    .columns(['workspace_id', 'updated_at'])
    .execute();
  await db.schema.createIndex('chat_threads_expiry').on('chat_threads').column('expires_at').execute();

  await db.schema
    .createTable('chat_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('thread_id', 'text', (c) => c.notNull())
    .addColumn('message_index', 'integer', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('content', t.json, (c) => c.notNull())
    .addColumn('metadata', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addForeignKeyConstraint(
      'chat_messages_thread',
      ['workspace_id', 'thread_id'],
      'chat_threads',
      ['workspace_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addUniqueConstraint('chat_messages_index', ['workspace_id', 'thread_id', 'message_index'])
    .execute();

  await db.schema
    .createTable('contradictions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('memory_a_id', 'text', (c) => c.notNull().references('memories.id').onDelete('cascade'))
    .addColumn('memory_b_id', 'text', (c) => c.notNull().references('memories.id').onDelete('cascade'))
    .addColumn('contradiction_type', 'text', (c) => c.notNull())
    .addColumn('confidence', t.float, (c) => c.notNull())
    .addColumn('detection_method', 'text', (c) => c.notNull())
    .addColumn('explanation', 'text')
    .addColumn('detected_at', t.timestamp, (c) => c.notNull())
    .addColumn('resolved_at', t.timestamp)
    .addColumn('resolution', 'text')
    .addColumn('merged_memory_id', 'text', (c) => c.references('memories.id').onDelete('set null'))
    // A pair is recorded once (the older memory is always `a`), whatever detects it again later.
    .addUniqueConstraint('contradictions_pair', ['memory_a_id', 'memory_b_id'])
    .execute();
  await db.schema
    .createIndex('contradictions_ws_open')
    .on('contradictions')
    .columns(['workspace_id', 'resolved_at', 'detected_at'])
    .execute();
  await db.schema.createIndex('contradictions_b').on('contradictions').column('memory_b_id').execute();

  await db.schema
    .createTable('entity_cards')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('card', t.json, (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('generated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('entity_cards_pk', ['workspace_id', 'entity_id'])
    .execute();
}
