import { sql, type Kysely } from 'kysely';
import { columnTypes, jsonDefault, type SqlDialect } from './column-types.js';

/**
 * Multi-vector page search and OCR. A page is searched by one vector per passage (a few sentences) instead of one
 * vector for its first 8,000 characters: `document_passages` holds them, and the page's own vector goes. Pages
 * stored before keep what they had as their one passage (the old vector with the text it was made from), so page
 * search still finds them; a reprocess gives them real passages.
 * Pages read by OCR record the model's confidence; a job records the pages it could not read and why.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('document_passages')
    .addColumn('page_id', 'text', (c) => c.notNull().references('document_pages.id').onDelete('cascade'))
    .addColumn('passage_no', 'integer', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('embedding', dialect === 'postgres' ? sql`vector` : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_passages_pk', ['page_id', 'passage_no'])
    .execute();
  await db.schema
    .createIndex('document_passages_ws')
    .on('document_passages')
    .columns(['workspace_id', 'document_id'])
    .execute();
  await sql`INSERT INTO document_passages (page_id, passage_no, workspace_id, document_id, text, embedding)
    SELECT id, 0, workspace_id, document_id, substr(transcript, 1, 8000), embedding FROM document_pages WHERE transcript <> ''`.execute(
    db,
  );
  await db.schema.alterTable('document_pages').dropColumn('embedding').execute();
  await db.schema.alterTable('document_pages').addColumn('transcript_confidence', t.float).execute();
  await db.schema
    .alterTable('ingestion_jobs')
    .addColumn('page_errors', t.json, (c) => c.notNull().defaultTo(jsonDefault(dialect, '[]')))
    .execute();
}
