import type { Selectable } from 'kysely';
import type { KbArticlesTable, KbJobsTable, KnowledgebasesTable } from '../database.js';
import { json, parseJson, parseJsonObject, toIso, toIsoOrNull } from '../rows.js';
import type {
  ArticleKind,
  ArticleLink,
  KnowledgebaseArticle,
  KnowledgebaseJob,
  KnowledgebaseJobStatus,
  KnowledgebaseMeta,
  KnowledgebaseStore,
  JsonObject,
} from '../types.js';
import type { SqlContext } from './context.js';

const toMeta = (row: Selectable<KnowledgebasesTable>): KnowledgebaseMeta => ({
  workspace_id: row.workspace_id,
  generated_at: toIso(row.generated_at),
  context_id: row.context_id,
  since: toIsoOrNull(row.since),
  generator: row.generator,
  stats: parseJsonObject(row.stats),
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

const toArticle = (row: Selectable<KbArticlesTable>): KnowledgebaseArticle => ({
  workspace_id: row.workspace_id,
  id: row.id,
  kind: row.kind as ArticleKind,
  title: row.title,
  summary: row.summary,
  body: row.body,
  memory_ids: parseJson<string[]>(row.memory_ids),
  links: parseJson<ArticleLink[]>(row.links),
  community_id: row.community_id === null ? null : Number(row.community_id),
  signature: row.signature,
  generator: row.generator,
  metadata: parseJsonObject(row.metadata),
  position: Number(row.position),
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

const toJob = (row: Selectable<KbJobsTable>): KnowledgebaseJob => ({
  id: row.id,
  workspace_id: row.workspace_id,
  status: row.status as KnowledgebaseJobStatus,
  options: parseJsonObject(row.options),
  result: row.result === null ? null : parseJson<JsonObject>(row.result),
  error: row.error,
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

const articleRow = (a: KnowledgebaseArticle) => ({
  ...a,
  memory_ids: json(a.memory_ids),
  links: json(a.links),
  metadata: json(a.metadata),
});

export class SqlKnowledgebaseStore implements KnowledgebaseStore {
  constructor(private readonly ctx: SqlContext) {}

  async getMeta(workspaceId: string): Promise<KnowledgebaseMeta | null> {
    const row = await this.ctx.db
      .selectFrom('knowledgebases')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row ? toMeta(row) : null;
  }

  async putMeta(meta: KnowledgebaseMeta): Promise<void> {
    const { workspace_id, created_at, ...rest } = meta;
    const values = { ...rest, stats: json(meta.stats) };
    await this.ctx.db
      .insertInto('knowledgebases')
      .values({ workspace_id, created_at, ...values })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet(values))
      .execute();
  }

  async listArticles(
    workspaceId: string,
    page: { limit: number; offset: number; kind?: ArticleKind | undefined },
  ): Promise<KnowledgebaseArticle[]> {
    let q = this.ctx.db.selectFrom('kb_articles').selectAll().where('workspace_id', '=', workspaceId);
    if (page.kind !== undefined) q = q.where('kind', '=', page.kind);
    const rows = await q.orderBy('position').orderBy('id').limit(page.limit).offset(page.offset).execute();
    return rows.map(toArticle);
  }

  async countArticles(workspaceId: string, kind?: ArticleKind): Promise<number> {
    let q = this.ctx.db
      .selectFrom('kb_articles')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('workspace_id', '=', workspaceId);
    if (kind !== undefined) q = q.where('kind', '=', kind);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  async getArticle(workspaceId: string, id: string): Promise<KnowledgebaseArticle | null> {
    const row = await this.ctx.db
      .selectFrom('kb_articles')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toArticle(row) : null;
  }

  async putArticle(article: KnowledgebaseArticle): Promise<void> {
    const { db } = this.ctx;
    const { workspace_id, id, created_at, ...rest } = articleRow(article);
    await db
      .insertInto('kb_articles')
      .values({ workspace_id, id, created_at, ...rest })
      .onConflict((oc) => oc.columns(['workspace_id', 'id']).doUpdateSet(rest))
      .execute();
    await db
      .deleteFrom('kb_article_memories')
      .where('workspace_id', '=', workspace_id)
      .where('article_id', '=', id)
      .execute();
    const cited = [...new Set(article.memory_ids)];
    // Bounded batches: SQLite caps bound parameters per statement.
    for (let start = 0; start < cited.length; start += 250) {
      const rows = cited.slice(start, start + 250).map((memory_id) => ({ workspace_id, article_id: id, memory_id }));
      await db.insertInto('kb_article_memories').values(rows).execute();
    }
  }

  async deleteArticles(workspaceId: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.ctx.db
      .deleteFrom('kb_articles')
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', [...ids])
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async articlesCiting(
    workspaceId: string,
    memoryId: string,
  ): Promise<Array<Pick<KnowledgebaseArticle, 'id' | 'title' | 'kind'>>> {
    const rows = await this.ctx.db
      .selectFrom('kb_article_memories as m')
      .innerJoin('kb_articles as a', (join) =>
        join.onRef('a.workspace_id', '=', 'm.workspace_id').onRef('a.id', '=', 'm.article_id'),
      )
      .select(['a.id', 'a.title', 'a.kind'])
      .where('m.workspace_id', '=', workspaceId)
      .where('m.memory_id', '=', memoryId)
      .orderBy('a.position')
      .orderBy('a.id')
      .execute();
    return rows.map((r) => ({ id: r.id, title: r.title, kind: r.kind as ArticleKind }));
  }

  async createJob(job: KnowledgebaseJob): Promise<void> {
    await this.ctx.db
      .insertInto('kb_jobs')
      .values({ ...job, options: json(job.options), result: job.result === null ? null : json(job.result) })
      .execute();
  }

  async getJob(workspaceId: string, id: string): Promise<KnowledgebaseJob | null> {
    const row = await this.ctx.db
      .selectFrom('kb_jobs')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toJob(row) : null;
  }

  async updateJob(
    id: string,
    patch: Partial<Pick<KnowledgebaseJob, 'status' | 'result' | 'error' | 'updated_at'>>,
  ): Promise<KnowledgebaseJob | null> {
    const { result, ...rest } = patch;
    const row = await this.ctx.db
      .updateTable('kb_jobs')
      .set({ ...rest, ...(result === undefined ? {} : { result: result === null ? null : json(result) }) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toJob(row) : null;
  }
}
