import type { Kysely } from 'kysely';
import { columnTypes, type SqlDialect } from './column-types.js';

/**
 * The audit trail of erasures: who asked, when, for which (hashed) user or subject, in which workspaces, and how many
 * rows of each kind went. No content and no raw id. Not tied to a workspace: the record outlives it.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('erasures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('erased_at', t.timestamp, (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('selector_kind', 'text', (c) => c.notNull())
    .addColumn('selector_hash', 'text', (c) => c.notNull())
    .addColumn('workspaces', t.json, (c) => c.notNull())
    .addColumn('removed', t.json, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('erasures_erased_at').on('erasures').columns(['erased_at', 'id']).execute();
  await db.schema.createIndex('erasures_selector').on('erasures').column('selector_hash').execute();
}
