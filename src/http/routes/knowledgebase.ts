import { Type } from 'typebox';
import type { CoreServices } from '../../services.js';
import { commonErrors, IdParams, WorkspaceQuery } from '../schemas/common.js';
import {
  Article,
  ArticleList,
  ArticlesQuery,
  CommunityResponse,
  ExportResponse,
  GenerateBody,
  GenerateResponse,
  JobEnvelope,
  KbGraphQuery,
  KbGraphResponse,
  KnowledgebaseInfo,
} from '../schemas/knowledgebase.js';
import { objectAccess, scopedAccess } from '../request-context.js';
import type { App } from '../server.js';

const tags = ['knowledgebase'];
const ArticleParams = Type.Object({
  '*': Type.String({
    minLength: 1,
    maxLength: 300,
    description: 'the article id, slashes included (e.g. topics/databases)',
  }),
});
const CommunityParams = Type.Object({
  community_id: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'the community number of the last generation',
  }),
});

/** The knowledgebase of the resolved workspace: generated from its graph's communities, read as articles. */
export function knowledgebaseRoutes(app: App, services: CoreServices): void {
  const kb = services.knowledgebase;

  app.post(
    '/knowledgebase/generate',
    {
      schema: {
        tags,
        summary:
          'Write or update the knowledgebase: one article per community of the graph and an index. Only articles whose memories changed are rewritten unless force. async=true returns 202 with a job',
        body: GenerateBody,
        response: { 200: GenerateResponse, 202: JobEnvelope, ...commonErrors },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const workspaceId = (await scopedAccess(services, request)).workspaceId;
      await services.workspaces.get(workspaceId);
      const options = {
        contextId: b.context_id,
        since: b.since,
        force: b.force || b.regenerate,
        minCommunitySize: b.min_community_size,
        maxCommunities: b.max_communities,
        resolution: b.resolution,
      };
      if (b.async) return reply.status(202).send({ job: await kb.enqueue(workspaceId, options) });
      return reply.status(200).send(await kb.generate(workspaceId, options));
    },
  );

  app.get(
    '/knowledgebase/jobs/:job_id',
    {
      schema: {
        tags,
        summary: 'A queued generation: queued, running, succeeded (with its result) or failed (with the error)',
        params: IdParams('job_id', 'job id (job_…)'),
        querystring: WorkspaceQuery,
        response: { 200: JobEnvelope, ...commonErrors },
      },
    },
    async (request) => ({
      job: await kb.job(
        (await objectAccess(services, request, 'knowledgebase_job', request.params.job_id)).workspaceId,
        request.params.job_id,
      ),
    }),
  );

  app.get(
    '/knowledgebase',
    {
      schema: {
        tags,
        summary: 'Metadata of the last generation and the index article (404 before the first generation)',
        querystring: WorkspaceQuery,
        response: { 200: KnowledgebaseInfo, ...commonErrors },
      },
    },
    async (request) => kb.info((await scopedAccess(services, request)).workspaceId),
  );

  app.get(
    '/knowledgebase/articles',
    {
      schema: {
        tags,
        summary: 'Articles, index first then topics by size, paginated with limit and offset',
        querystring: ArticlesQuery,
        response: { 200: ArticleList, ...commonErrors },
      },
    },
    async (request) => {
      const q = request.query;
      const workspaceId = (await scopedAccess(services, request)).workspaceId;
      const kind = q.article_type === 'community' ? 'topic' : q.article_type;
      return kb.articles(workspaceId, { limit: q.limit, offset: q.offset, kind });
    },
  );

  app.get(
    '/knowledgebase/articles/*',
    {
      schema: {
        tags,
        summary: 'One article by its path-style id, e.g. /v1/knowledgebase/articles/topics/databases',
        params: ArticleParams,
        querystring: WorkspaceQuery,
        response: { 200: Article, ...commonErrors },
      },
    },
    async (request) => kb.article((await scopedAccess(services, request)).workspaceId, request.params['*']),
  );

  app.get(
    '/knowledgebase/export',
    {
      schema: {
        tags,
        summary: 'The whole knowledgebase as one JSON document',
        querystring: WorkspaceQuery,
        response: { 200: ExportResponse, ...commonErrors },
      },
    },
    async (request) => kb.export((await scopedAccess(services, request)).workspaceId),
  );

  app.get(
    '/knowledgebase/graph',
    {
      schema: {
        tags,
        summary: 'Articles as nodes, linked where associations join their memories (weight: how many)',
        querystring: KbGraphQuery,
        response: { 200: KbGraphResponse, ...commonErrors },
      },
    },
    async (request) => kb.graph((await scopedAccess(services, request)).workspaceId),
  );

  app.get(
    '/knowledgebase/graph/communities/:community_id',
    {
      schema: {
        tags,
        summary: 'One community of the last generation and the article about it',
        params: CommunityParams,
        querystring: WorkspaceQuery,
        response: { 200: CommunityResponse, ...commonErrors },
      },
    },
    async (request) => kb.community((await scopedAccess(services, request)).workspaceId, request.params.community_id),
  );
}
