import type { Kysely } from 'kysely';
import { columnTypes, type SqlDialect } from './column-types.js';

/**
 * A workspace created on first use is provisional until another call uses it: the call that created it removes it
 * again if it fails and the workspace holds nothing (AccessResolver.abandon), and a provisional workspace is the only
 * kind it may remove, so that a concurrent call that found the workspace (and marked it used) never loses it. The
 * workspaces that exist already are in use.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .alterTable('workspaces')
    .addColumn('provisional', columnTypes(dialect).bool, (c) =>
      c.notNull().defaultTo(dialect === 'postgres' ? false : 0),
    )
    .execute();
}
