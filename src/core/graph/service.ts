import type { GraphConfig } from '../../config.js';
import type { Storage } from '../../storage/types.js';
import type { AnalysisPart, AnalysisResult } from './analysis/analyze.js';
import type { GraphAnalyzer } from './analysis/analyzer.js';
import { loadGraph, type GraphScope, type LoadedGraph } from './load.js';
import {
  bridgesReport,
  centralityReport,
  communitiesReport,
  statsReport,
  summaryReport,
  type CentralityMeasure,
} from './reports.js';

export interface CommunityOptions {
  resolution: number;
  minSize: number;
}

export interface CentralityOptions {
  sortBy: CentralityMeasure;
  limit: number;
}

/**
 * Graph analysis of one workspace: snapshot, statistics, communities, centrality, bridges, or all in one pass.
 * Every call loads the graph in scope (bounded by the configuration) and analyses it with the analyzer, which
 * leaves the event loop for large graphs. There is no planning graph: `includes_rpg` is always false.
 */
export class GraphService {
  constructor(
    private readonly storage: Storage,
    private readonly analyzer: GraphAnalyzer,
    private readonly limits: GraphConfig,
  ) {}

  load(workspaceId: string, scope: GraphScope, maxNodes = this.limits.maxNodes): Promise<LoadedGraph> {
    return loadGraph(this.storage, workspaceId, scope, {
      maxNodes: Math.min(maxNodes, this.limits.maxNodes),
      maxEdges: this.limits.maxEdges,
    });
  }

  async snapshot(workspaceId: string, scope: GraphScope, maxNodes: number) {
    const graph = await this.load(workspaceId, scope, maxNodes);
    return {
      ...header(graph),
      nodes: graph.nodes.map((n) => ({
        id: n.id,
        label: n.abstract ?? '',
        type: n.type,
        subtype: n.subtype,
        importance: n.importance,
        tags: n.tags,
        context_id: n.context_id,
        created_at: n.created_at,
      })),
      edges: graph.edges.map((e) => ({
        id: e.id,
        source: e.source_id,
        target: e.target_id,
        relationship: e.relationship,
        strength: e.strength,
      })),
    };
  }

  async stats(workspaceId: string, scope: GraphScope) {
    const { graph, result } = await this.analyse(workspaceId, scope, ['stats']);
    return { ...header(graph), ...statsReport(graph, result.stats!) };
  }

  async communities(workspaceId: string, scope: GraphScope, options: CommunityOptions) {
    const { graph, result } = await this.analyse(workspaceId, scope, ['communities'], options.resolution);
    return { ...header(graph), ...communitiesReport(graph, result.communities!, options) };
  }

  async centrality(workspaceId: string, scope: GraphScope, options: CentralityOptions) {
    const { graph, result } = await this.analyse(workspaceId, scope, ['centrality']);
    return { ...header(graph), ...centralityReport(graph, result.centrality!, options) };
  }

  async bridges(workspaceId: string, scope: GraphScope) {
    const { graph, result } = await this.analyse(workspaceId, scope, ['bridges']);
    return { ...header(graph), ...bridgesReport(graph, result.bridges!) };
  }

  /** `maxNodes`: only the newest memories, the same ones a snapshot of that size draws (a viewer's picture). */
  async analyze(
    workspaceId: string,
    scope: GraphScope,
    options: CommunityOptions & CentralityOptions & { maxNodes?: number | undefined },
  ) {
    const started = performance.now();
    const { graph, result } = await this.analyse(
      workspaceId,
      scope,
      ['stats', 'communities', 'centrality', 'bridges'],
      options.resolution,
      options.maxNodes,
    );
    const stats = statsReport(graph, result.stats!);
    const communities = communitiesReport(graph, result.communities!, options);
    const centrality = centralityReport(graph, result.centrality!, options);
    const bridges = bridgesReport(graph, result.bridges!);
    return {
      ...header(graph),
      summary: summaryReport(stats, communities, centrality, bridges),
      stats,
      communities,
      centrality,
      bridges,
      analysis_ms: Math.round(performance.now() - started),
    };
  }

  /** Loads the graph in scope and runs the analyses asked for. */
  async analyse(
    workspaceId: string,
    scope: GraphScope,
    parts: AnalysisPart[],
    resolution = 1,
    maxNodes?: number,
  ): Promise<{ graph: LoadedGraph; result: AnalysisResult }> {
    const graph = await this.load(workspaceId, scope, maxNodes);
    return { graph, result: await this.analyzer.run({ graph: graph.compact, parts, resolution }) };
  }
}

function header(graph: LoadedGraph) {
  return {
    workspace_id: graph.workspaceId,
    node_count: graph.nodes.length,
    edge_count: graph.edges.length,
    truncated: graph.truncated,
    includes_rpg: false,
  };
}
