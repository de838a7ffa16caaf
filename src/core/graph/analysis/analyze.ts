import { biconnectivity, type Biconnectivity } from './biconnectivity.js';
import { centrality, type Centrality } from './centrality.js';
import { detectCommunities, type Communities } from './communities.js';
import { adjacency, degreeOf, toGraphology, type CompactGraph } from './compact.js';

export const ANALYSIS_PARTS = ['stats', 'communities', 'centrality', 'bridges'] as const;
export type AnalysisPart = (typeof ANALYSIS_PARTS)[number];

export interface AnalysisRequest {
  graph: CompactGraph;
  parts: readonly AnalysisPart[];
  /** Louvain resolution. */
  resolution: number;
}

export interface GraphStats {
  nodeCount: number;
  /** Distinct pairs of memories joined by at least one association. */
  pairCount: number;
  /** pairCount / possible pairs. */
  density: number;
  /** Mean distinct neighbours per memory. */
  averageDegree: number;
  maxDegree: number;
  connectedComponents: number;
  largestComponent: number;
  isolatedNodes: number;
}

export interface AnalysisResult {
  stats?: GraphStats;
  communities?: Communities;
  centrality?: Centrality;
  bridges?: Pick<Biconnectivity, 'articulationPoints' | 'bridges'>;
}

/**
 * Every analysis of one graph in one pass, sharing the adjacency, the graphology graph and the depth-first
 * search. Pure and synchronous: it runs inline for small graphs and in a worker thread for large ones.
 */
export function analyzeGraph(request: AnalysisRequest): AnalysisResult {
  const { graph, parts } = request;
  const adj = adjacency(graph);
  const wants = (part: AnalysisPart) => parts.includes(part);
  const g = wants('communities') || wants('centrality') ? toGraphology(graph) : null;
  const dfs = wants('stats') || wants('bridges') ? biconnectivity(graph, adj) : null;
  const result: AnalysisResult = {};
  if (dfs && wants('stats')) result.stats = stats(graph, dfs, (v) => degreeOf(adj, v));
  if (dfs && wants('bridges')) result.bridges = { articulationPoints: dfs.articulationPoints, bridges: dfs.bridges };
  if (g && wants('communities')) result.communities = detectCommunities(graph, g, request.resolution);
  if (g && wants('centrality')) result.centrality = centrality(graph, adj, g);
  return result;
}

function stats(graph: CompactGraph, dfs: Biconnectivity, degree: (v: number) => number): GraphStats {
  const n = graph.order;
  const sizes = new Uint32Array(dfs.componentCount);
  let maxDegree = 0;
  let isolated = 0;
  for (let v = 0; v < n; v++) {
    sizes[dfs.componentOf[v]!]!++;
    const d = degree(v);
    if (d > maxDegree) maxDegree = d;
    if (d === 0) isolated++;
  }
  const pairs = graph.a.length;
  return {
    nodeCount: n,
    pairCount: pairs,
    density: n > 1 ? pairs / ((n * (n - 1)) / 2) : 0,
    averageDegree: n > 0 ? (2 * pairs) / n : 0,
    maxDegree,
    connectedComponents: dfs.componentCount,
    largestComponent: sizes.reduce((max, size) => Math.max(max, size), 0),
    isolatedNodes: isolated,
  };
}
