import type {
  Association,
  GraphEdge,
  MemoryCandidate,
  MemoryFilter,
  NeighbourRow,
  Storage,
} from '../../storage/types.js';
import type { ArmResult } from './fusion.js';

/** Edges between a fact and its parent are decomposition, not knowledge: neither the arm nor expansion follows them. */
const DECOMPOSITION = 'part_of';
/**
 * Links that only restate closeness in embedding space (the write pipeline's automatic links are of these kinds).
 * The vector arm measures that already, so the graph arm and the backlink boost look at the other, typed links
 * (references, causes, solves, …); expansion follows every kind, as the formula of docs/specification.md §1 says.
 */
export const SIMILARITY_LINKS: readonly string[] = ['similar_to', 'variant_of'];
export const NOT_KNOWLEDGE_LINKS: readonly string[] = [DECOMPOSITION, ...SIMILARITY_LINKS];
/**
 * Links by which their source disowns their target: it is wrong (contradicts), outdated (supersedes, replaces) or
 * second best (preferred_over). A memory pointed at so is no more central for it, so the backlink boost leaves them
 * out with the others: contradiction detection's link had put the stale "The user lives in Lisbon …" above the "The
 * user now lives in Porto." that contradicts it. The graph arm and expansion still follow them.
 */
const DISOWNING_LINKS: readonly string[] = ['contradicts', 'supersedes', 'replaces', 'preferred_over'];
/** What the backlink boost does not count. */
export const NOT_BACKLINKS: readonly string[] = [...NOT_KNOWLEDGE_LINKS, ...DISOWNING_LINKS];
/** Per-hop decay of the expansion formula (docs/specification.md §1: parent_score x strength x 0.8^depth). */
export const EXPANSION_DECAY = 0.8;

const farEnd = (edge: Association, near: string): string => (edge.source_id === near ? edge.target_id : edge.source_id);

/** Strongest first, ties by id, so that runs repeat exactly. */
const strongestFirst = (a: GraphEdge, b: GraphEdge): number => b.strength - a.strength || a.id.localeCompare(b.id);

/** Edges of each node, strongest first (ties by id, so runs repeat exactly). */
function edgesByNode(edges: readonly Association[], nodes: readonly string[]): Map<string, Association[]> {
  const wanted = new Set(nodes);
  const byNode = new Map<string, Association[]>();
  for (const edge of edges) {
    for (const end of [edge.source_id, edge.target_id]) {
      if (!wanted.has(end)) continue;
      const list = byNode.get(end) ?? [];
      list.push(edge);
      byNode.set(end, list);
    }
  }
  for (const list of byNode.values()) list.sort(strongestFirst);
  return byNode;
}

/**
 * Bounded graph traversal as a retrieval arm: the direct neighbours of the best candidates so far over typed
 * links, ranked by the seed's rank and the edge's strength. Runs after the other arms, which supply its seeds.
 */
export async function graphArm(
  storage: Storage,
  workspaceId: string,
  seeds: readonly string[],
  depth: number,
): Promise<ArmResult> {
  if (seeds.length === 0) return { arm: 'graph', ids: [] };
  const edges = await storage.associations.neighbours(workspaceId, seeds, {
    direction: 'both',
    excludeRelationships: NOT_KNOWLEDGE_LINKS,
  });
  const byNode = edgesByNode(edges, seeds);
  const scores = new Map<string, number>();
  const seedSet = new Set(seeds);
  seeds.forEach((seed, rank) => {
    for (const edge of byNode.get(seed) ?? []) {
      const id = farEnd(edge, seed);
      if (seedSet.has(id)) continue;
      scores.set(id, Math.max(scores.get(id) ?? 0, edge.strength / (rank + 1)));
    }
  });
  const ids = [...scores.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, depth)
    .map(([id]) => id);
  return { arm: 'graph', ids };
}

export interface ExpansionSeed {
  id: string;
  relevance: number;
  boosted: number;
}

export interface Discovery extends ExpansionSeed {
  memory: MemoryCandidate;
  depth: number;
  parentId: string;
  strength: number;
}

/** Each node's neighbour rows, strongest edge first. */
function rowsByNode(rows: readonly NeighbourRow[]): Map<string, NeighbourRow[]> {
  const byNode = new Map<string, NeighbourRow[]>();
  for (const row of rows) {
    const list = byNode.get(row.near) ?? [];
    list.push(row);
    byNode.set(row.near, list);
  }
  for (const list of byNode.values()) list.sort((a, b) => strongestFirst(a.edge, b.edge));
  return byNode;
}

/**
 * Breadth-first expansion over associations, both directions: a memory discovered at hop `depth` from `parent`
 * over an edge of `strength` scores parent x strength x 0.8^depth (relevance and ranking score alike). Seen ids,
 * non-active memories and those `filter` excludes are skipped (each hop reads the edges with their far ends' rows,
 * through the filter); at most `maxExpansion` discoveries. Frontier nodes are visited best first and their edges
 * strongest first, so the first (best) path to a memory is the one that scores it. Discoveries that could not be
 * returned (under `minRelevance`, or not above `minScore`, the score of the last returned place) are not looked for.
 */
export async function expand(
  storage: Storage,
  workspaceId: string,
  seeds: readonly ExpansionSeed[],
  options: { maxDepth: number; maxExpansion: number; minRelevance: number; minScore: number; filter: MemoryFilter },
): Promise<Discovery[]> {
  const seen = new Set(seeds.map((s) => s.id));
  const discovered: Discovery[] = [];
  let frontier: ExpansionSeed[] = [...seeds].sort((a, b) => b.boosted - a.boosted);
  for (let depth = 1; depth <= options.maxDepth && discovered.length < options.maxExpansion; depth++) {
    // Strength is at most 1: a node whose best possible discovery would fall under the relevance floor, or under
    // the score a result needs to be returned, has nothing to offer; the walk stops early when none has.
    const reach = EXPANSION_DECAY ** depth;
    frontier = frontier.filter(
      (f) => f.relevance * reach >= options.minRelevance && f.boosted * reach > options.minScore,
    );
    if (frontier.length === 0) break;
    const byNode = rowsByNode(
      await storage.associations.neighbourRows(
        workspaceId,
        frontier.map((f) => f.id),
        { excludeRelationships: [DECOMPOSITION], filter: options.filter },
      ),
    );
    const decay = EXPANSION_DECAY ** depth;
    const next: Discovery[] = [];
    walk: for (const parent of frontier) {
      for (const { edge, memory } of byNode.get(parent.id) ?? []) {
        if (seen.has(memory.id)) continue;
        if (discovered.length + next.length >= options.maxExpansion) break walk;
        seen.add(memory.id);
        next.push({
          id: memory.id,
          memory,
          depth,
          parentId: parent.id,
          strength: edge.strength,
          relevance: parent.relevance * edge.strength * decay,
          boosted: parent.boosted * edge.strength * decay,
        });
      }
    }
    discovered.push(...next);
    frontier = [...next].sort((a, b) => b.boosted - a.boosted);
  }
  return discovered;
}
