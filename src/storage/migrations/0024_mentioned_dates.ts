import { sql, type Kysely } from 'kysely';
import { columnTypes, type SqlDialect } from './column-types.js';

/**
 * The days a memory's text names ("on 14 December", "tomorrow"): the first instant of the first and the last of the
 * last, read on write by core (memories/mentioned-dates.ts), so that recall finds a memory by the day it is about
 * and not only by the day it was written. Memories written before have `mentions_read` false until a background
 * sweep reads them (core/memories/mentions-backfill.ts); new ones are written read.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.alterTable('memories').addColumn('mentioned_from', t.timestamp).execute();
  await db.schema.alterTable('memories').addColumn('mentioned_to', t.timestamp).execute();
  await db.schema
    .alterTable('memories')
    .addColumn('mentions_read', t.bool, (c) => c.notNull().defaultTo(dialect === 'postgres' ? false : 0))
    .execute();
  // A window's memories: a range of `mentioned_from` no wider than the window and the longest span kept, whose
  // `mentioned_to` is read from the index too (most spans are a day, so most of the range ends before the window).
  await db.schema
    .createIndex('memories_mentioned')
    .on('memories')
    .columns(['workspace_id', 'mentioned_from', 'mentioned_to'])
    .where(sql.ref('mentioned_from'), 'is not', null)
    .execute();
  // Empty once the backfill has run: only memories written before this migration are in it.
  await db.schema
    .createIndex('memories_mentions_unread')
    .on('memories')
    .column('seq')
    .where(sql.ref('mentions_read'), '=', dialect === 'postgres' ? sql.lit(false) : sql.lit(0))
    .execute();
}
