import { UndirectedGraph } from './graphology.js';

/**
 * The association graph as the analyses see it: nodes 0..order-1, and one undirected weighted edge per pair of
 * memories that any association joins, whatever its direction (parallel and opposite edges merge, keeping the
 * strongest strength). Bridges, articulation points, components and Louvain are defined on undirected graphs, and
 * most relationships hold both ways in meaning. Plain typed arrays, so the graph crosses to a worker thread cheaply.
 */
export interface CompactGraph {
  order: number;
  /** Pair i joins a[i] and b[i], a[i] < b[i]. */
  a: Uint32Array;
  b: Uint32Array;
  /** Strongest strength among the associations of the pair. */
  weight: Float64Array;
}

/** Merges directed, weighted edges between node indices into unique undirected pairs; self-loops are dropped. */
export function compactGraph(
  order: number,
  edges: Iterable<{ source: number; target: number; strength: number }>,
): CompactGraph {
  const pairIndex = new Map<number, number>();
  const a: number[] = [];
  const b: number[] = [];
  const weight: number[] = [];
  for (const { source, target, strength } of edges) {
    if (source === target) continue;
    const low = Math.min(source, target);
    const high = Math.max(source, target);
    const key = low * order + high;
    const existing = pairIndex.get(key);
    if (existing === undefined) {
      pairIndex.set(key, a.length);
      a.push(low);
      b.push(high);
      weight.push(strength);
    } else if (strength > weight[existing]!) {
      weight[existing] = strength;
    }
  }
  return { order, a: Uint32Array.from(a), b: Uint32Array.from(b), weight: Float64Array.from(weight) };
}

/** Compressed adjacency: the neighbours of v are `neighbour[starts[v] .. starts[v + 1])`, each with its pair index. */
export interface Adjacency {
  starts: Uint32Array;
  neighbour: Uint32Array;
  pair: Uint32Array;
}

export function adjacency(graph: CompactGraph): Adjacency {
  const degree = new Uint32Array(graph.order + 1);
  for (let i = 0; i < graph.a.length; i++) {
    degree[graph.a[i]!]!++;
    degree[graph.b[i]!]!++;
  }
  const starts = new Uint32Array(graph.order + 1);
  for (let v = 0; v < graph.order; v++) starts[v + 1] = starts[v]! + degree[v]!;
  const fill = starts.slice(0, graph.order);
  const neighbour = new Uint32Array(graph.a.length * 2);
  const pair = new Uint32Array(graph.a.length * 2);
  for (let i = 0; i < graph.a.length; i++) {
    const x = graph.a[i]!;
    const y = graph.b[i]!;
    neighbour[fill[x]!] = y;
    pair[fill[x]!++] = i;
    neighbour[fill[y]!] = x;
    pair[fill[y]!++] = i;
  }
  return { starts, neighbour, pair };
}

export const degreeOf = (adj: Adjacency, v: number): number => adj.starts[v + 1]! - adj.starts[v]!;

/** The same graph for graphology: node keys are the indices, in order (its indexed routines rely on that order). */
export function toGraphology(graph: CompactGraph): UndirectedGraph {
  const g = new UndirectedGraph();
  for (let v = 0; v < graph.order; v++) g.addNode(String(v));
  for (let i = 0; i < graph.a.length; i++)
    g.addEdge(String(graph.a[i]), String(graph.b[i]), { weight: graph.weight[i] });
  return g;
}

/** A graphology result keyed by node index → one number per node. */
export function byIndex(order: number, values: Record<string, number>): Float64Array {
  const out = new Float64Array(order);
  for (const [key, value] of Object.entries(values)) out[Number(key)] = value;
  return out;
}
