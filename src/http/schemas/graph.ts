import { Type, type Static } from 'typebox';
import { CENTRALITY_MEASURES } from '../../core/graph/reports.js';
import { Nullable, StringEnum, Timestamp, WorkspaceIdField } from './common.js';

const scopeFields = {
  workspace_id: WorkspaceIdField,
  context_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 128, description: 'only memories of this context' }),
  ),
  node_types: Type.Optional(
    Type.Array(Type.String({ maxLength: 200 }), {
      maxItems: 20,
      description: 'memory types (episodic, semantic, procedural, working), comma-separated or repeated',
    }),
  ),
  relationship_types: Type.Optional(
    Type.Array(Type.String({ maxLength: 2000 }), {
      maxItems: 100,
      description: 'only associations of these types (any case), comma-separated or repeated',
    }),
  ),
  include_rpg: Type.Boolean({
    default: false,
    description:
      'accepted for compatibility; there is no planning graph, so nothing is merged and `includes_rpg` is false',
  }),
};
const communityFields = {
  algorithm: StringEnum(['louvain'] as const, {
    default: 'louvain',
    description: 'Louvain (graphology); Leiden is not available',
  }),
  resolution: Type.Number({
    minimum: 0.01,
    maximum: 10,
    default: 1,
    description: 'above 1: more, smaller communities',
  }),
  min_size: Type.Integer({
    minimum: 1,
    maximum: 100_000,
    default: 1,
    description: 'smaller communities are left out (their memories count as unassigned)',
  }),
};
const sortBy = StringEnum(CENTRALITY_MEASURES, { default: 'pagerank', description: 'the measure nodes are ranked by' });

export const GraphScopeQuery = Type.Object(scopeFields, { additionalProperties: false });
export type GraphScopeQuery = Static<typeof GraphScopeQuery>;
export const SnapshotQuery = Type.Object(
  {
    ...scopeFields,
    max_nodes: Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      default: 5_000,
      description: 'newest memories taken (capped by MEMD_GRAPH_MAX_NODES)',
    }),
  },
  { additionalProperties: false },
);
export const CommunitiesQuery = Type.Object({ ...scopeFields, ...communityFields }, { additionalProperties: false });
export const CentralityQuery = Type.Object(
  {
    ...scopeFields,
    sort_by: sortBy,
    limit: Type.Integer({ minimum: 1, maximum: 100_000, default: 100, description: 'nodes returned, highest first' }),
  },
  { additionalProperties: false },
);
export const AnalyzeBody = Type.Object(
  {
    ...scopeFields,
    ...communityFields,
    sort_by: sortBy,
    top_k: Type.Integer({ minimum: 1, maximum: 10_000, default: 20, description: 'nodes in the centrality ranking' }),
    max_nodes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description:
          'analyse only the newest memories, as many as a snapshot of this max_nodes holds (default and cap: MEMD_GRAPH_MAX_NODES)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AnalyzeBody = Static<typeof AnalyzeBody>;

const header = {
  workspace_id: Type.String(),
  node_count: Type.Integer({ description: 'active memories in scope' }),
  edge_count: Type.Integer({ description: 'associations between them' }),
  truncated: Type.Boolean({
    description: 'the graph was larger than MEMD_GRAPH_MAX_NODES / _MAX_EDGES; the newest part was analysed',
  }),
  includes_rpg: Type.Boolean(),
};

const statsFields = {
  pair_count: Type.Integer({
    description: 'distinct pairs of memories joined by an association (analyses treat the graph as undirected)',
  }),
  density: Type.Number(),
  average_degree: Type.Number({ description: 'distinct neighbours per memory' }),
  max_degree: Type.Integer(),
  connected_components: Type.Integer(),
  largest_component_size: Type.Integer(),
  isolated_nodes: Type.Integer(),
  relationship_counts: Type.Record(Type.String(), Type.Integer()),
  category_counts: Type.Record(Type.String(), Type.Integer()),
};
const Stats = Type.Object({ node_count: Type.Integer(), edge_count: Type.Integer(), ...statsFields });

const communitiesFields = {
  algorithm: Type.String(),
  resolution: Type.Number(),
  modularity: Type.Number(),
  community_count: Type.Integer(),
  unassigned_count: Type.Integer({ description: 'memories in communities smaller than min_size' }),
  communities: Type.Array(
    Type.Object({
      id: Type.Integer({ description: 'rank by size, 0 = largest' }),
      size: Type.Integer(),
      memory_ids: Type.Array(Type.String(), { description: 'most connected inside the community first' }),
      central_memory_ids: Type.Array(Type.String()),
      cohesion: Type.Number({ description: 'internal pairs / possible pairs' }),
      internal_edges: Type.Integer(),
    }),
  ),
};
const CommunitiesResult = Type.Object(communitiesFields);

const centralityFields = {
  sort_by: Type.String(),
  betweenness_method: StringEnum(['exact', 'sampled'] as const, {
    description: 'sampled: Brandes–Pich estimate from betweenness_samples sources',
  }),
  betweenness_samples: Type.Integer(),
  eigenvector_converged: Type.Boolean(),
  nodes: Type.Array(
    Type.Object({
      memory_id: Type.String(),
      degree: Type.Integer({ description: 'distinct neighbours' }),
      in_degree: Type.Integer({ description: 'associations ending here' }),
      out_degree: Type.Integer({ description: 'associations starting here' }),
      degree_centrality: Type.Number(),
      betweenness: Type.Number(),
      eigenvector: Nullable(Type.Number()),
      pagerank: Type.Number(),
    }),
  ),
};
const CentralityResult = Type.Object(centralityFields);

const bridgesFields = {
  articulation_points: Type.Array(Type.Object({ memory_id: Type.String(), degree: Type.Integer() })),
  bridges: Type.Array(
    Type.Object({
      memory_ids: Type.Array(Type.String()),
      associations: Type.Array(
        Type.Object({
          id: Type.String(),
          source_id: Type.String(),
          target_id: Type.String(),
          relationship: Type.String(),
          strength: Type.Number(),
        }),
      ),
    }),
  ),
};
const BridgesResult = Type.Object(bridgesFields);

export const SnapshotResponse = Type.Object({
  ...header,
  nodes: Type.Array(
    Type.Object({
      id: Type.String(),
      label: Type.String(),
      type: Type.String(),
      subtype: Nullable(Type.String()),
      importance: Type.Number(),
      tags: Type.Array(Type.String()),
      context_id: Type.String(),
      created_at: Timestamp,
    }),
  ),
  edges: Type.Array(
    Type.Object({
      id: Type.String(),
      source: Type.String(),
      target: Type.String(),
      relationship: Type.String(),
      strength: Type.Number(),
    }),
  ),
});
export const StatsResponse = Type.Object({ ...header, ...statsFields });
export const CommunitiesResponse = Type.Object({ ...header, ...communitiesFields });
export const CentralityResponse = Type.Object({ ...header, ...centralityFields });
export const BridgesResponse = Type.Object({ ...header, ...bridgesFields });
export const AnalyzeResponse = Type.Object({
  ...header,
  summary: Type.Object({
    text: Type.String(),
    node_count: Type.Integer(),
    edge_count: Type.Integer(),
    density: Type.Number(),
    connected_components: Type.Integer(),
    community_count: Type.Integer(),
    largest_community_size: Type.Integer(),
    modularity: Type.Number(),
    most_central_memory_ids: Type.Array(Type.String()),
    articulation_point_count: Type.Integer(),
    bridge_count: Type.Integer(),
  }),
  stats: Stats,
  communities: CommunitiesResult,
  centrality: CentralityResult,
  bridges: BridgesResult,
  analysis_ms: Type.Number(),
});
