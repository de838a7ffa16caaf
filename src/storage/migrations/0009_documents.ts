import { sql, type Kysely } from 'kysely';
import { columnTypes, type SqlDialect } from './column-types.js';

/**
 * Documents: the uploaded file's record and (while needed, or when retained) its bytes, the pages extracted from it
 * with one embedding each (page search), its ingestion jobs, and which memories its chunks became.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  const t = columnTypes(dialect);

  await db.schema
    .createTable('documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('importance', t.float, (c) => c.notNull())
    .addColumn('tags', t.json, (c) => c.notNull())
    .addColumn('metadata', t.json, (c) => c.notNull())
    .addColumn('extraction_options', t.json, (c) => c.notNull())
    .addColumn('retain_original', t.bool, (c) => c.notNull())
    // The job whose status is the document's; no foreign key, the job references the document.
    .addColumn('current_job_id', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('documents_ws_created').on('documents').columns(['workspace_id', 'created_at']).execute();

  // In the database on both engines: any API node can (re)process it, and it goes with the document on delete.
  await db.schema
    .createTable('document_originals')
    .addColumn('document_id', 'text', (c) => c.primaryKey().references('documents.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('bytes', t.bytes, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('document_pages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('page_no', 'integer', (c) => c.notNull())
    .addColumn('transcript', 'text', (c) => c.notNull())
    .addColumn('transcript_model', 'text', (c) => c.notNull())
    .addColumn('embedding', dialect === 'postgres' ? sql`vector` : 'blob', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('document_pages_no', ['document_id', 'page_no'])
    .execute();
  await db.schema
    .createIndex('document_pages_ws')
    .on('document_pages')
    .columns(['workspace_id', 'document_id'])
    .execute();

  await db.schema
    .createTable('ingestion_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('extraction_options', t.json, (c) => c.notNull())
    // Null until the stage is done: a resumed job skips what is already stored.
    .addColumn('pages_total', 'integer')
    .addColumn('chunks_total', 'integer')
    .addColumn('chunks_done', 'integer', (c) => c.notNull())
    .addColumn('memories_linked', 'integer', (c) => c.notNull())
    .addColumn('chunks_deduplicated', 'integer', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('started_at', t.timestamp)
    .addColumn('finished_at', t.timestamp)
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ingestion_jobs_ws_created')
    .on('ingestion_jobs')
    .columns(['workspace_id', 'created_at'])
    .execute();
  await db.schema.createIndex('ingestion_jobs_document').on('ingestion_jobs').column('document_id').execute();

  // Which memories a document's chunks became; `job_id` is the run that last produced each (reprocess drops the rest).
  await db.schema
    .createTable('document_memories')
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('memory_id', 'text', (c) => c.notNull().references('memories.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('page_no', 'integer', (c) => c.notNull())
    .addColumn('chunk_index', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_memories_pk', ['document_id', 'memory_id'])
    .execute();
  await db.schema
    .createIndex('document_memories_order')
    .on('document_memories')
    .columns(['document_id', 'page_no', 'chunk_index'])
    .execute();
  await db.schema.createIndex('document_memories_memory').on('document_memories').column('memory_id').execute();
}
