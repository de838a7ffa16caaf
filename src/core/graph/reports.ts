import type { AnalysisResult, GraphStats } from './analysis/analyze.js';
import type { Centrality } from './analysis/centrality.js';
import type { Communities } from './analysis/communities.js';
import type { LoadedGraph } from './load.js';
import { categoryOf } from './taxonomy.js';

/** Analysis results, by node index, turned into what the API returns: memory ids and named fields. */

export const CENTRALITY_MEASURES = ['pagerank', 'betweenness', 'eigenvector', 'degree'] as const;
export type CentralityMeasure = (typeof CENTRALITY_MEASURES)[number];

const round = (x: number): number => Math.round(x * 1e6) / 1e6;

export function statsReport(graph: LoadedGraph, stats: GraphStats) {
  const relationshipCounts: Record<string, number> = {};
  const categoryCounts: Record<string, number> = {};
  for (const edge of graph.edges) {
    relationshipCounts[edge.relationship] = (relationshipCounts[edge.relationship] ?? 0) + 1;
    const category = categoryOf(edge.relationship) ?? 'other';
    categoryCounts[category] = (categoryCounts[category] ?? 0) + 1;
  }
  return {
    node_count: stats.nodeCount,
    edge_count: graph.edges.length,
    pair_count: stats.pairCount,
    density: round(stats.density),
    average_degree: round(stats.averageDegree),
    max_degree: stats.maxDegree,
    connected_components: stats.connectedComponents,
    largest_component_size: stats.largestComponent,
    isolated_nodes: stats.isolatedNodes,
    relationship_counts: relationshipCounts,
    category_counts: categoryCounts,
  };
}

export function communitiesReport(
  graph: LoadedGraph,
  found: Communities,
  options: { resolution: number; minSize: number },
) {
  const ids = (members: readonly number[]) => members.map((v) => graph.nodes[v]!.id);
  const kept = found.communities.filter((c) => c.members.length >= options.minSize);
  return {
    algorithm: 'louvain' as const,
    resolution: options.resolution,
    modularity: round(found.modularity),
    community_count: kept.length,
    unassigned_count: graph.nodes.length - kept.reduce((sum, c) => sum + c.members.length, 0),
    communities: kept.map((c) => ({
      id: c.id,
      size: c.members.length,
      memory_ids: ids(c.members),
      central_memory_ids: ids(c.members.slice(0, 3)),
      cohesion: round(c.cohesion),
      internal_edges: c.internalPairs,
    })),
  };
}

export function centralityReport(
  graph: LoadedGraph,
  c: Centrality,
  options: { sortBy: CentralityMeasure; limit: number },
) {
  const inDegree = new Uint32Array(graph.nodes.length);
  const outDegree = new Uint32Array(graph.nodes.length);
  for (const edge of graph.edges) {
    outDegree[graph.index.get(edge.source_id)!]!++;
    inDegree[graph.index.get(edge.target_id)!]!++;
  }
  const score: Record<CentralityMeasure, (v: number) => number> = {
    pagerank: (v) => c.pagerank[v]!,
    betweenness: (v) => c.betweenness[v]!,
    eigenvector: (v) => c.eigenvector?.[v] ?? 0,
    degree: (v) => c.degree[v]!,
  };
  const order = graph.nodes
    .map((_, v) => v)
    .sort((x, y) => score[options.sortBy](y) - score[options.sortBy](x) || x - y);
  return {
    sort_by: options.sortBy,
    betweenness_method: c.betweennessSamples < graph.nodes.length ? ('sampled' as const) : ('exact' as const),
    betweenness_samples: c.betweennessSamples,
    eigenvector_converged: c.eigenvector !== null,
    nodes: order.slice(0, options.limit).map((v) => ({
      memory_id: graph.nodes[v]!.id,
      degree: c.degree[v]!,
      in_degree: inDegree[v]!,
      out_degree: outDegree[v]!,
      degree_centrality: round(c.degreeCentrality[v]!),
      betweenness: round(c.betweenness[v]!),
      eigenvector: c.eigenvector ? round(c.eigenvector[v]!) : null,
      pagerank: round(c.pagerank[v]!),
    })),
  };
}

export function bridgesReport(graph: LoadedGraph, found: NonNullable<AnalysisResult['bridges']>) {
  const { a, b } = graph.compact;
  const degree = new Uint32Array(graph.nodes.length);
  for (let i = 0; i < a.length; i++) {
    degree[a[i]!]!++;
    degree[b[i]!]!++;
  }
  const pairKey = (x: string, y: string) => (x < y ? `${x} ${y}` : `${y} ${x}`);
  const associationsOfPair = new Map<string, LoadedGraph['edges']>();
  for (const edge of graph.edges) {
    const key = pairKey(edge.source_id, edge.target_id);
    const list = associationsOfPair.get(key);
    if (list) list.push(edge);
    else associationsOfPair.set(key, [edge]);
  }
  return {
    articulation_points: found.articulationPoints.map((v) => ({ memory_id: graph.nodes[v]!.id, degree: degree[v]! })),
    bridges: found.bridges.map((pair) => {
      const x = graph.nodes[a[pair]!]!.id;
      const y = graph.nodes[b[pair]!]!.id;
      const associations = associationsOfPair.get(pairKey(x, y)) ?? [];
      return {
        memory_ids: [x, y],
        associations: associations.map((e) => ({
          id: e.id,
          source_id: e.source_id,
          target_id: e.target_id,
          relationship: e.relationship,
          strength: e.strength,
        })),
      };
    }),
  };
}

/** A few lines a person can read at a glance. */
export function summaryReport(
  stats: ReturnType<typeof statsReport>,
  communities: ReturnType<typeof communitiesReport>,
  centrality: ReturnType<typeof centralityReport>,
  bridges: ReturnType<typeof bridgesReport>,
) {
  const largest = communities.communities[0];
  const top = centrality.nodes[0];
  const text = [
    `${stats.node_count} memories and ${stats.edge_count} associations in ${stats.connected_components} connected component(s), ${stats.isolated_nodes} isolated.`,
    `${communities.community_count} communit${communities.community_count === 1 ? 'y' : 'ies'} (modularity ${communities.modularity})${largest ? `; the largest has ${largest.size} memories` : ''}.`,
    top ? `Most central memory by ${centrality.sort_by}: ${top.memory_id}.` : 'No memories to rank.',
    `${bridges.articulation_points.length} articulation point(s) and ${bridges.bridges.length} bridge edge(s) hold the graph together.`,
  ].join(' ');
  return {
    text,
    node_count: stats.node_count,
    edge_count: stats.edge_count,
    density: stats.density,
    connected_components: stats.connected_components,
    community_count: communities.community_count,
    largest_community_size: largest?.size ?? 0,
    modularity: communities.modularity,
    most_central_memory_ids: centrality.nodes.slice(0, 5).map((n) => n.memory_id),
    articulation_point_count: bridges.articulation_points.length,
    bridge_count: bridges.bridges.length,
  };
}
