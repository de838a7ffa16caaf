import { Type, type Static } from 'typebox';
import {
  ArticleLinkRecord,
  KnowledgebaseArticleRecord,
  KnowledgebaseJobRecord,
  KnowledgebaseMetaRecord,
} from '../../schemas/knowledgebase.js';
import { Identifier, Nullable, paging, StringEnum, Timestamp, WorkspaceIdField } from './common.js';

export const GenerateBody = Type.Object(
  {
    workspace_id: WorkspaceIdField,
    context_id: Type.Optional(Identifier('only memories of this context')),
    since: Type.Optional(Timestamp),
    force: Type.Boolean({
      default: false,
      description: 'rewrite every article, even those whose memories did not change',
    }),
    regenerate: Type.Boolean({ default: false, description: 'the client library’s name for force' }),
    async: Type.Boolean({
      default: false,
      description: 'queue the generation as a durable task and return 202 with a job to poll',
    }),
    min_community_size: Type.Integer({
      minimum: 1,
      maximum: 10_000,
      default: 3,
      description: 'smaller communities get no article',
    }),
    max_communities: Type.Integer({
      minimum: 1,
      maximum: 500,
      default: 50,
      description: 'articles for the largest communities only',
    }),
    resolution: Type.Number({
      minimum: 0.01,
      maximum: 10,
      default: 1,
      description: 'Louvain resolution: above 1, more and smaller topics',
    }),
    include_rpg: Type.Boolean({ default: false, description: 'accepted; there is no planning graph to merge' }),
    max_god_nodes: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 200,
        description: 'accepted from the client library; no separate entity articles are written',
      }),
    ),
  },
  { additionalProperties: false },
);
export type GenerateBody = Static<typeof GenerateBody>;

const Link = ArticleLinkRecord;
const stored = KnowledgebaseArticleRecord.properties;

/**
 * An article as stored (src/schemas/knowledgebase.ts) as the API serves it: `article_type` for its kind, `content` for
 * its body with the related articles rendered; its workspace, signature and position stay inside.
 */
export const Article = Type.Object(
  {
    id: stored.id,
    article_type: stored.kind,
    title: stored.title,
    summary: stored.summary,
    content: Type.String({ description: 'Markdown; memory links point at /v1/memories/{id}' }),
    memory_ids: stored.memory_ids,
    memory_count: Type.Integer(),
    links: stored.links,
    community_id: stored.community_id,
    generator: stored.generator,
    metadata: stored.metadata,
    created_at: stored.created_at,
    updated_at: stored.updated_at,
  },
  { title: 'KnowledgebaseArticle' },
);

const { created_at: _created, updated_at: _updated, ...metaFields } = KnowledgebaseMetaRecord.properties;

/** The knowledgebase as stored (src/schemas/knowledgebase.ts), with the counts its stats hold. */
const infoFields = {
  ...metaFields,
  article_count: Type.Integer(),
  community_count: Type.Integer(),
};

export const KnowledgebaseInfo = Type.Object({ ...infoFields, index: Nullable(Article) });

const Changes = Type.Object({
  created: Type.Array(Type.String()),
  updated: Type.Array(Type.String()),
  unchanged: Type.Array(Type.String()),
  removed: Type.Array(Type.String()),
});

export const GenerateResponse = Type.Object({ ...infoFields, index: Article, changes: Changes });

/** The one declaration of a generation job: src/schemas/knowledgebase.ts. */
export const Job = KnowledgebaseJobRecord;
export const JobEnvelope = Type.Object({ job: Job });

export const ArticlesQuery = Type.Object(
  {
    workspace_id: WorkspaceIdField,
    ...paging(200, 50),
    article_type: Type.Optional(
      StringEnum(['index', 'topic', 'community'] as const, { description: '`community` is another name for topic' }),
    ),
  },
  { additionalProperties: false },
);

export const ArticleList = Type.Object({
  articles: Type.Array(Article),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const ExportResponse = Type.Object({
  version: Type.String(),
  exported_at: Timestamp,
  knowledgebase: Type.Object(infoFields),
  articles: Type.Array(Article),
});

export const KbGraphQuery = Type.Object(
  {
    workspace_id: WorkspaceIdField,
    include_rpg: Type.Boolean({ default: false, description: 'accepted; there is no planning graph to merge' }),
  },
  { additionalProperties: false },
);

export const KbGraphResponse = Type.Object({
  workspace_id: Type.String(),
  generated_at: Timestamp,
  includes_rpg: Type.Boolean(),
  nodes: Type.Array(
    Type.Object({
      id: Type.String(),
      title: Type.String(),
      article_type: Type.String(),
      size: Type.Integer(),
      community_id: Nullable(Type.Integer()),
    }),
  ),
  links: Type.Array(Type.Object({ source: Type.String(), target: Type.String(), weight: Type.Integer() })),
});

export const CommunityResponse = Type.Object({
  id: Type.Integer(),
  article_id: Type.String(),
  label: Type.String(),
  size: Type.Integer(),
  memory_ids: Type.Array(Type.String()),
  central_memory_ids: Type.Array(Type.String()),
  cohesion: Type.Number(),
  key_terms: Type.Array(Type.String()),
  links: Type.Array(Link),
});
