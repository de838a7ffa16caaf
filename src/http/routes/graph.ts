import type { FastifyRequest } from 'fastify';
import type { GraphScope } from '../../core/graph/load.js';
import { splitList } from '../../core/graph/relationship-filter.js';
import type { CoreServices } from '../../services.js';
import { commonErrors } from '../schemas/common.js';
import {
  AnalyzeBody,
  AnalyzeResponse,
  BridgesResponse,
  CentralityQuery,
  CentralityResponse,
  CommunitiesQuery,
  CommunitiesResponse,
  GraphScopeQuery,
  SnapshotQuery,
  SnapshotResponse,
  StatsResponse,
} from '../schemas/graph.js';
import { scopedAccess } from '../request-context.js';
import type { App } from '../server.js';

const tags = ['graph'];

/** The scope fields every graph route shares, from a query string or a body. */
export function graphScope(
  input: Pick<GraphScopeQuery, 'context_id' | 'node_types' | 'relationship_types'>,
): GraphScope {
  return {
    contextId: input.context_id,
    nodeTypes: splitList(input.node_types),
    relationshipTypes: splitList(input.relationship_types),
  };
}

/**
 * Analysis of the association graph of the resolved workspace (query `workspace_id`, X-Workspace-ID, the session's
 * workspace, …). The graph is taken as undirected; at most MEMD_GRAPH_MAX_NODES newest active memories are analysed.
 */
export function graphRoutes(app: App, services: CoreServices): void {
  const scoped = async (request: FastifyRequest, q: GraphScopeQuery) => {
    const workspaceId = (await scopedAccess(services, request)).workspaceId;
    await services.workspaces.get(workspaceId);
    return { workspaceId, scope: graphScope(q) };
  };

  app.get(
    '/graph/snapshot',
    {
      schema: {
        tags,
        summary: 'The graph itself: active memories (newest max_nodes) and the associations between them',
        querystring: SnapshotQuery,
        response: { 200: SnapshotResponse, ...commonErrors },
      },
    },
    async (request) => {
      const { workspaceId, scope } = await scoped(request, request.query);
      return services.graph.snapshot(workspaceId, scope, request.query.max_nodes);
    },
  );

  app.get(
    '/graph/stats',
    {
      schema: {
        tags,
        summary: 'Node and edge counts, density, average degree, connected components, relationship counts',
        querystring: GraphScopeQuery,
        response: { 200: StatsResponse, ...commonErrors },
      },
    },
    async (request) => {
      const { workspaceId, scope } = await scoped(request, request.query);
      return services.graph.stats(workspaceId, scope);
    },
  );

  app.get(
    '/graph/communities',
    {
      schema: {
        tags,
        summary: 'Communities by Louvain on strength-weighted edges (deterministic for a given graph)',
        querystring: CommunitiesQuery,
        response: { 200: CommunitiesResponse, ...commonErrors },
      },
    },
    async (request) => {
      const q = request.query;
      const { workspaceId, scope } = await scoped(request, q);
      return services.graph.communities(workspaceId, scope, { resolution: q.resolution, minSize: q.min_size });
    },
  );

  app.get(
    '/graph/centrality',
    {
      schema: {
        tags,
        summary:
          'Per-memory degree, betweenness (exact on small graphs, estimated from sampled sources on large ones), eigenvector and PageRank, highest first',
        querystring: CentralityQuery,
        response: { 200: CentralityResponse, ...commonErrors },
      },
    },
    async (request) => {
      const q = request.query;
      const { workspaceId, scope } = await scoped(request, q);
      return services.graph.centrality(workspaceId, scope, { sortBy: q.sort_by, limit: q.limit });
    },
  );

  app.get(
    '/graph/bridges',
    {
      schema: {
        tags,
        summary: 'Articulation points (memories whose loss splits the graph) and bridge edges (links whose loss does)',
        querystring: GraphScopeQuery,
        response: { 200: BridgesResponse, ...commonErrors },
      },
    },
    async (request) => {
      const { workspaceId, scope } = await scoped(request, request.query);
      return services.graph.bridges(workspaceId, scope);
    },
  );

  app.post(
    '/graph/analyze',
    {
      schema: {
        tags,
        summary: 'Stats, communities, centrality and bridges in one pass, with a summary',
        body: AnalyzeBody,
        response: { 200: AnalyzeResponse, ...commonErrors },
      },
    },
    async (request) => {
      const b = request.body;
      const { workspaceId, scope } = await scoped(request, b);
      return services.graph.analyze(workspaceId, scope, {
        resolution: b.resolution,
        minSize: b.min_size,
        sortBy: b.sort_by,
        limit: b.top_k,
        maxNodes: b.max_nodes,
      });
    },
  );
}
