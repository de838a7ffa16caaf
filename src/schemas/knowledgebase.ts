import { Type, type Static } from 'typebox';
import { JsonObject, Nullable, StringEnum, Timestamp } from './primitives.js';

/** What an article is: the index of a knowledgebase, or the article about one topic (a community of the graph). */
export const ARTICLE_KINDS = ['index', 'topic'] as const;
export type ArticleKind = (typeof ARTICLE_KINDS)[number];

/** A link from one article to another, declared once. */
export const ArticleLinkRecord = Type.Object({
  article_id: Type.String(),
  title: Type.String(),
  weight: Type.Integer({ description: 'associations joining the two topics' }),
});
export type ArticleLink = Static<typeof ArticleLinkRecord>;

/**
 * A knowledgebase article as stored, declared once. The API serves it as `kind` → `article_type` and its body with
 * the links to related articles rendered (`content`), without what only generation reads (src/http/schemas/knowledgebase.ts).
 */
export const KnowledgebaseArticleRecord = Type.Object({
  workspace_id: Type.String(),
  id: Type.String({ description: 'path-style and stable across regenerations: `index`, `topics/<slug>`' }),
  kind: StringEnum(ARTICLE_KINDS),
  title: Type.String(),
  summary: Type.String(),
  body: Type.String({
    description: 'Markdown written from the article’s memories (by a language model or extractively)',
  }),
  memory_ids: Type.Array(Type.String(), { description: 'most central first' }),
  links: Type.Array(ArticleLinkRecord),
  community_id: Nullable(
    Type.Integer({ description: 'the community of the last generation this article stands for (topics)' }),
  ),
  signature: Type.String({
    description: 'fingerprint of the memories the body was written from; unchanged, the body is not rewritten',
  }),
  generator: Type.String({ description: 'llm or extractive' }),
  metadata: JsonObject,
  position: Type.Integer({ description: 'order in listings: the index first, then topics by size' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type KnowledgebaseArticle = Static<typeof KnowledgebaseArticleRecord>;

/** A workspace's knowledgebase as last generated, declared once; the API adds the counts from `stats`. */
export const KnowledgebaseMetaRecord = Type.Object({
  workspace_id: Type.String(),
  generated_at: Timestamp,
  context_id: Nullable(Type.String()),
  since: Nullable(Timestamp),
  generator: Type.String(),
  stats: JsonObject,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type KnowledgebaseMeta = Static<typeof KnowledgebaseMetaRecord>;

export const KNOWLEDGEBASE_JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type KnowledgebaseJobStatus = (typeof KNOWLEDGEBASE_JOB_STATUSES)[number];

/** A queued generation, declared once: response schema and stored record. */
export const KnowledgebaseJobRecord = Type.Object(
  {
    id: Type.String(),
    workspace_id: Type.String(),
    status: StringEnum(KNOWLEDGEBASE_JOB_STATUSES),
    options: JsonObject,
    result: Nullable(JsonObject),
    error: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'KnowledgebaseJob' },
);
export type KnowledgebaseJob = Static<typeof KnowledgebaseJobRecord>;
