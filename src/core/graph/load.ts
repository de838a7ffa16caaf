import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { invalid } from '../../errors.js';
import type { GraphConfig } from '../../config.js';
import type { GraphEdge, MemoryFilter, MemoryNode, Storage } from '../../storage/types.js';
import { MEMORY_TYPES } from '../memories/vocabulary.js';
import { compactGraph, type CompactGraph } from './analysis/compact.js';
import { relationshipFilter } from './relationship-filter.js';

/** Which part of a workspace's graph an analysis covers. */
export interface GraphScope {
  contextId?: string | undefined;
  /** Memory types (episodic, semantic, procedural, working). */
  nodeTypes?: readonly string[] | undefined;
  /** Relationship types, any case. */
  relationshipTypes?: readonly string[] | undefined;
  /** Only memories created at or after this time. */
  createdAfter?: string | undefined;
}

export interface LoadedGraph {
  workspaceId: string;
  /** Active memories in scope, oldest first: node i of `compact`. */
  nodes: MemoryNode[];
  index: Map<string, number>;
  /** Associations between those memories, of the relationship types in scope. */
  edges: GraphEdge[];
  compact: CompactGraph;
  /** True when the node or edge bound left part of the workspace out. */
  truncated: boolean;
}

/**
 * Small pages, and a turn of the event loop between them: the SQLite driver is synchronous, so without the yield the
 * whole read of a large graph would hold the loop (other requests) in one block.
 */
const EDGE_PAGE = 2_000;

/**
 * The active memories of a workspace in scope and the associations among them, bounded: the newest `maxNodes`
 * memories (soft-deleted and archived ones are not part of the graph) and at most `maxEdges` associations.
 */
export async function loadGraph(
  storage: Storage,
  workspaceId: string,
  scope: GraphScope,
  limits: Pick<GraphConfig, 'maxNodes' | 'maxEdges'>,
): Promise<LoadedGraph> {
  const relationships = relationshipFilter({ types: scope.relationshipTypes, typesPath: '/relationship_types' });
  const wanted = relationships ? new Set<string>(relationships) : null;
  const newest = await storage.memories.listNodes(workspaceId, nodeFilter(scope), limits.maxNodes + 1);
  let truncated = newest.length > limits.maxNodes;
  const nodes = newest.slice(0, limits.maxNodes).reverse();
  const index = new Map(nodes.map((n, i) => [n.id, i]));

  const edges: GraphEdge[] = [];
  for (let after: string | null = null; ; ) {
    const page = await storage.associations.scanEdges(workspaceId, after, EDGE_PAGE);
    for (const edge of page) {
      if (index.has(edge.source_id) && index.has(edge.target_id) && (!wanted || wanted.has(edge.relationship)))
        edges.push(edge);
    }
    if (edges.length >= limits.maxEdges) {
      truncated ||= edges.length > limits.maxEdges || page.length === EDGE_PAGE;
      edges.length = Math.min(edges.length, limits.maxEdges);
      break;
    }
    if (page.length < EDGE_PAGE) break;
    after = page[page.length - 1]!.id;
    await yieldToEventLoop();
  }
  const compact = compactGraph(
    nodes.length,
    edges.map((e) => ({ source: index.get(e.source_id)!, target: index.get(e.target_id)!, strength: e.strength })),
  );
  return { workspaceId, nodes, index, edges, compact, truncated };
}

function nodeFilter(scope: GraphScope): MemoryFilter {
  const types = (scope.nodeTypes ?? []).map((t) => t.trim().toLowerCase());
  const unknown = types.find((t) => !(MEMORY_TYPES as readonly string[]).includes(t));
  if (unknown !== undefined)
    throw invalid('/node_types', `unknown memory type '${unknown}'; one of ${MEMORY_TYPES.join(', ')}`);
  return {
    statuses: ['active'],
    ...(scope.contextId !== undefined && { contextId: scope.contextId }),
    ...(types.length > 0 && { types }),
    ...(scope.createdAfter !== undefined && { createdAfter: scope.createdAfter }),
  };
}
