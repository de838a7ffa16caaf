import type { Kysely } from 'kysely';

/**
 * Each sandbox checkpoint names its revision (a random token written with it), so that a node whose live sandbox
 * descends from an older one can tell, by reading this column alone, that another node has moved the session on.
 * Checkpoints written before have the empty revision.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sandbox_checkpoints')
    .addColumn('revision', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}
