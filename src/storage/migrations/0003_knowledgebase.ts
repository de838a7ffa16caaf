import type { Kysely } from 'kysely';
import { columnTypes, type SqlDialect } from './column-types.js';

/**
 * Graph reads, and the knowledgebase of a workspace: its metadata, its articles (with the memories each cites) and
 * generation jobs.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  const t = columnTypes(dialect);
  // Edges of given memories within a workspace (traversal, recall's graph arm) and a workspace's edges in id order
  // (graph analysis, export). Without these, SQLite answers both from (workspace_id, created_at): every edge of the
  // workspace read and sorted per call.
  await db.schema
    .createIndex('associations_ws_source')
    .on('associations')
    .columns(['workspace_id', 'source_id'])
    .execute();
  await db.schema
    .createIndex('associations_ws_target')
    .on('associations')
    .columns(['workspace_id', 'target_id'])
    .execute();
  await db.schema.createIndex('associations_ws_id').on('associations').columns(['workspace_id', 'id']).execute();

  await db.schema
    .createTable('knowledgebases')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('generated_at', t.timestamp, (c) => c.notNull())
    .addColumn('context_id', 'text')
    .addColumn('since', t.timestamp)
    .addColumn('generator', 'text', (c) => c.notNull())
    .addColumn('stats', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('kb_articles')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('memory_ids', t.json, (c) => c.notNull())
    .addColumn('links', t.json, (c) => c.notNull())
    .addColumn('community_id', 'integer')
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('generator', 'text', (c) => c.notNull())
    .addColumn('metadata', t.json, (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('kb_articles_pk', ['workspace_id', 'id'])
    .execute();

  // Which articles cite a memory (the provenance trace asks); rewritten with the article.
  await db.schema
    .createTable('kb_article_memories')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('article_id', 'text', (c) => c.notNull())
    .addColumn('memory_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('kb_article_memories_pk', ['workspace_id', 'article_id', 'memory_id'])
    .addForeignKeyConstraint(
      'kb_article_memories_article',
      ['workspace_id', 'article_id'],
      'kb_articles',
      ['workspace_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('kb_article_memories_memory')
    .on('kb_article_memories')
    .columns(['workspace_id', 'memory_id'])
    .execute();

  await db.schema
    .createTable('kb_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('options', t.json, (c) => c.notNull())
    .addColumn('result', t.json)
    .addColumn('error', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
}
