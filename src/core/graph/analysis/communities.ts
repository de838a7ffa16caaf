import { seededRandom } from '../../random.js';
import type { CompactGraph } from './compact.js';
import { louvain, type UndirectedGraph } from './graphology.js';

export interface Community {
  /** Rank by size, largest first (ties: the community holding the lowest node index first). */
  id: number;
  /** Node indices, strongest internal weighted degree first. */
  members: number[];
  /** Pairs inside the community. */
  internalPairs: number;
  /** internalPairs / possible pairs: 1 for a clique, 0 for a singleton. */
  cohesion: number;
}

export interface Communities {
  communities: Community[];
  /** Community id of each node. */
  communityOf: Int32Array;
  modularity: number;
  /** Pairs joining two communities, summed per pair of communities (a < b): the links between topics. */
  links: Array<{ a: number; b: number; pairs: number }>;
}

/**
 * Louvain community detection (graphology) on the strength-weighted graph. `resolution` above 1 favours more,
 * smaller communities. The random source is seeded, so an unchanged graph gives the same communities every time —
 * the knowledgebase relies on that to leave unchanged topics alone.
 */
export function detectCommunities(graph: CompactGraph, g: UndirectedGraph, resolution: number): Communities {
  const n = graph.order;
  const raw = new Int32Array(n);
  let modularity = 0;
  if (graph.a.length === 0) {
    // Louvain needs at least one edge: without any, every memory is its own community.
    for (let v = 0; v < n; v++) raw[v] = v;
  } else {
    const detailed = louvain.detailed(g, { getEdgeWeight: 'weight', resolution, rng: seededRandom(0x6c6f7576) });
    for (const [key, community] of Object.entries(detailed.communities)) raw[Number(key)] = community;
    modularity = detailed.modularity;
  }

  const groups = new Map<number, number[]>();
  for (let v = 0; v < n; v++) {
    const group = groups.get(raw[v]!);
    if (group) group.push(v);
    else groups.set(raw[v]!, [v]);
  }
  const ordered = [...groups.values()].sort((x, y) => y.length - x.length || x[0]! - y[0]!);
  const communityOf = new Int32Array(n);
  ordered.forEach((members, id) => {
    members.forEach((v) => {
      communityOf[v] = id;
    });
  });

  const internalPairs = new Uint32Array(ordered.length);
  const internalWeight = new Float64Array(n);
  const between = new Map<number, number>();
  for (let i = 0; i < graph.a.length; i++) {
    const x = graph.a[i]!;
    const y = graph.b[i]!;
    const cx = communityOf[x]!;
    const cy = communityOf[y]!;
    if (cx === cy) {
      internalPairs[cx]!++;
      internalWeight[x]! += graph.weight[i]!;
      internalWeight[y]! += graph.weight[i]!;
    } else {
      const key = Math.min(cx, cy) * ordered.length + Math.max(cx, cy);
      between.set(key, (between.get(key) ?? 0) + 1);
    }
  }
  const communities = ordered.map((members, id) => {
    const possible = (members.length * (members.length - 1)) / 2;
    return {
      id,
      members: [...members].sort((x, y) => internalWeight[y]! - internalWeight[x]! || x - y),
      internalPairs: internalPairs[id]!,
      cohesion: possible === 0 ? 0 : internalPairs[id]! / possible,
    };
  });
  const links = [...between.entries()]
    .map(([key, pairs]) => ({ a: Math.floor(key / ordered.length), b: key % ordered.length, pairs }))
    .sort((x, y) => x.a - y.a || x.b - y.b);
  return { communities, communityOf, modularity, links };
}
