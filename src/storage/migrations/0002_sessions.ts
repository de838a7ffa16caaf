import type { Kysely } from 'kysely';
import { columnTypes, type SqlDialect } from './column-types.js';

/** Sessions and their working-memory entries. */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('metadata', t.json, (c) => c.notNull())
    .addColumn('ttl_seconds', 'integer', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_ws').on('sessions').columns(['workspace_id', 'created_at']).execute();
  await db.schema.createIndex('sessions_expiry').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('working_memory')
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', t.json, (c) => c.notNull())
    .addColumn('ttl_seconds', 'integer')
    .addColumn('expires_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('working_memory_pk', ['session_id', 'key'])
    .execute();
}
