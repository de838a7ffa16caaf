import { AppError, notFound } from '../../errors.js';
import type { Association, Direction, Storage } from '../../storage/types.js';
import { relationshipFilter } from './relationship-filter.js';

export interface TraverseOptions {
  maxDepth: number;
  relationshipTypes?: readonly string[] | undefined;
  relationshipCategories?: readonly string[] | undefined;
  direction: Direction;
  minStrength: number;
  maxPaths: number;
  maxNodes: number;
}

export interface PathEdge {
  id: string;
  source: string;
  target: string;
  source_id: string;
  target_id: string;
  relationship: string;
  strength: number;
  /** Made by memd (similarity links, fact decomposition, contradictions), not stated by a client. */
  auto_generated: boolean;
}

export interface GraphPath {
  nodes: string[];
  edges: PathEdge[];
  /** Product of the edge strengths: a chain is as strong as its links together (recall's expansion uses the same decay). */
  total_strength: number;
  depth: number;
}

export interface TraverseResult {
  paths: GraphPath[];
  unique_nodes: string[];
  total_paths: number;
  query_latency_ms: number;
}

/** Edges read per hop, per unit of budget: a hub with thousands of links costs a bounded read, strongest first. */
const EDGES_PER_BUDGET_UNIT = 8;
const MAX_EDGES_PER_HOP = 20_000;

/**
 * Paths from a memory, breadth-first, strongest first. `depth` is the number of links of a path, never more than
 * `maxDepth`: a memory at the end of a longer chain of stated links appears when a shorter path reaches it, often
 * through an automatic link (marked `auto_generated`). A path never visits a memory twice (cycles end it), every
 * memory is expanded at most once (through its first, shortest and strongest path), and the work is bounded:
 * at most `maxDepth` hops, one storage read per hop of at most MAX_EDGES_PER_HOP edges, `maxNodes` distinct
 * memories (the start included) and `maxPaths` paths. Only active memories are reached.
 */
export async function traverse(
  storage: Storage,
  workspaceId: string,
  startId: string,
  options: TraverseOptions,
): Promise<TraverseResult> {
  const started = performance.now();
  const relationships = relationshipFilter({
    types: options.relationshipTypes,
    categories: options.relationshipCategories,
    typesPath: '/relationship_types',
  });
  const start = await storage.memories.get(workspaceId, startId);
  if (!start) throw notFound('memory', startId);
  if (start.status === 'deleted')
    throw new AppError('conflict', `memory '${startId}' is deleted; its associations are no longer followed`);

  const perHop = Math.min(MAX_EDGES_PER_HOP, (options.maxPaths + options.maxNodes) * EDGES_PER_BUDGET_UNIT);
  const discovered = new Set([startId]);
  const paths: GraphPath[] = [];
  let frontier: GraphPath[] = [{ nodes: [startId], edges: [], total_strength: 1, depth: 0 }];

  for (let depth = 1; depth <= options.maxDepth && frontier.length > 0 && paths.length < options.maxPaths; depth++) {
    const near = frontier.map((p) => p.nodes[p.nodes.length - 1]!);
    const edges = await storage.associations.neighbours(workspaceId, near, {
      direction: options.direction,
      ...(relationships && { relationships }),
      minStrength: options.minStrength,
      limit: perHop,
    });
    const steps = stepsByNode(edges, new Set(near), options.direction);
    const next: GraphPath[] = [];
    for (const path of frontier) {
      for (const step of steps.get(path.nodes[path.nodes.length - 1]!) ?? []) {
        if (path.nodes.includes(step.far)) continue;
        const isNew = !discovered.has(step.far);
        if (isNew && discovered.size >= options.maxNodes) continue;
        const extended = extend(path, step);
        paths.push(extended);
        if (isNew) {
          discovered.add(step.far);
          next.push(extended);
        }
        if (paths.length >= options.maxPaths) break;
      }
      if (paths.length >= options.maxPaths) break;
    }
    frontier = next.sort((a, b) => b.total_strength - a.total_strength);
  }
  return {
    paths,
    unique_nodes: [...discovered],
    total_paths: paths.length,
    query_latency_ms: Math.round((performance.now() - started) * 100) / 100,
  };
}

interface Step {
  edge: Association;
  far: string;
}

/** For each frontier memory, the edges leaving it in the requested direction, strongest first. */
function stepsByNode(
  edges: readonly Association[],
  near: ReadonlySet<string>,
  direction: Direction,
): Map<string, Step[]> {
  const steps = new Map<string, Step[]>();
  const add = (from: string, step: Step) => {
    const list = steps.get(from);
    if (list) list.push(step);
    else steps.set(from, [step]);
  };
  for (const edge of edges) {
    if (direction !== 'incoming' && near.has(edge.source_id)) add(edge.source_id, { edge, far: edge.target_id });
    if (direction !== 'outgoing' && near.has(edge.target_id)) add(edge.target_id, { edge, far: edge.source_id });
  }
  for (const list of steps.values())
    list.sort((a, b) => b.edge.strength - a.edge.strength || a.edge.id.localeCompare(b.edge.id));
  return steps;
}

function extend(path: GraphPath, { edge, far }: Step): GraphPath {
  const pathEdge: PathEdge = {
    id: edge.id,
    source: edge.source_id,
    target: edge.target_id,
    source_id: edge.source_id,
    target_id: edge.target_id,
    relationship: edge.relationship,
    strength: edge.strength,
    auto_generated: edge.metadata.auto_generated === true,
  };
  return {
    nodes: [...path.nodes, far],
    edges: [...path.edges, pathEdge],
    total_strength: Math.round(path.total_strength * edge.strength * 1e6) / 1e6,
    depth: path.depth + 1,
  };
}
