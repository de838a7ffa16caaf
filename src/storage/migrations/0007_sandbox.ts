import type { Kysely } from 'kysely';
import { columnTypes, type SqlDialect } from './column-types.js';

/** Checkpoints of the context environment's Python sandboxes: one per session, replaced on each save. */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  const t = columnTypes(dialect);
  // A checkpoint goes with its session (deleted, expired and swept) and with its workspace.
  await db.schema
    .createTable('sandbox_checkpoints')
    .addColumn('session_id', 'text', (c) => c.primaryKey().references('sessions.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('data', t.bytes, (c) => c.notNull())
    .addColumn('metadata', t.json, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_checkpoints_ws').on('sandbox_checkpoints').column('workspace_id').execute();
}
