import type { Kysely } from 'kysely';
import type { SqlDialect } from './column-types.js';

/**
 * A counter per workspace of acknowledged changes to its memories and links, shared by every API node: a recall
 * cache keeps what it read under the counter's value and answers from it only while the value holds. No foreign
 * key: the row outlives its workspace, so a workspace deleted and created again under the same id never counts
 * from 0 again (a node's cache could otherwise take the old workspace's results for the new one's).
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('memory_versions')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey())
    .addColumn('version', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
    .execute();
}
