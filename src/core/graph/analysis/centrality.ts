import { seededRandom } from '../../random.js';
import { byIndex, degreeOf, type Adjacency, type CompactGraph } from './compact.js';
import { createUnweightedIndexedBrandes, eigenvectorCentrality, pagerank, type UndirectedGraph } from './graphology.js';

export interface Centrality {
  /** Distinct neighbours. */
  degree: Uint32Array;
  /** degree / (order - 1). */
  degreeCentrality: Float64Array;
  /** Normalised betweenness (shortest paths, unweighted): exact, or estimated from `betweennessSamples` sources. */
  betweenness: Float64Array;
  betweennessSamples: number;
  /** Null when the power iteration does not converge (the result would be arbitrary). */
  eigenvector: Float64Array | null;
  pagerank: Float64Array;
}

/**
 * Work allowed for betweenness, in node + adjacency visits: one source costs about nodes + 2 × pairs. A graph whose
 * every source fits is computed exactly (about 1,000 memories with 5,000 links); a larger one from as many sources as
 * fit, at least MIN_SAMPLES (10,000 memories and 50,000 links: about 135 sources, a second on a 2-core server).
 */
const BETWEENNESS_BUDGET = 15_000_000;
const MIN_SAMPLES = 64;

export function centrality(graph: CompactGraph, adj: Adjacency, g: UndirectedGraph): Centrality {
  const n = graph.order;
  const degree = new Uint32Array(n);
  const degreeCentrality = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    degree[v] = degreeOf(adj, v);
    degreeCentrality[v] = n > 1 ? degree[v]! / (n - 1) : 0;
  }
  const perSource = n + 2 * graph.a.length;
  const { values: betweenness, sources } = betweennessCentrality(
    g,
    Math.max(MIN_SAMPLES, Math.floor(BETWEENNESS_BUDGET / Math.max(1, perSource))),
  );
  return {
    degree,
    degreeCentrality,
    betweenness,
    betweennessSamples: sources,
    eigenvector: eigenvector(g),
    pagerank: n === 0 ? new Float64Array(0) : byIndex(n, pagerank(g, { getEdgeWeight: 'weight' })),
  };
}

/**
 * Brandes' algorithm on graphology's indexed shortest-path routine. With at most `samples` nodes every node is a
 * source (exact); above, `samples` seeded-random sources are used and the sums scaled by n / samples (the
 * Brandes–Pich estimator). Normalised like graphology's: divided by (n - 1)(n - 2).
 */
function betweennessCentrality(g: UndirectedGraph, samples: number): { values: Float64Array; sources: number } {
  const n = g.order;
  const values = new Float64Array(n);
  if (n <= 2) return { values, sources: n };
  const brandes = createUnweightedIndexedBrandes(g);
  const sources = n <= samples ? Array.from({ length: n }, (_, i) => i) : sampleIndices(n, samples);
  const delta = new Float64Array(n);
  for (const source of sources) {
    const [stack, predecessors, sigma] = brandes(source);
    delta.fill(0);
    while (stack.size !== 0) {
      const w = stack.pop()!;
      const coefficient = (1 + delta[w]!) / sigma[w]!;
      for (const v of predecessors[w]!) delta[v]! += sigma[v]! * coefficient;
      if (w !== source) values[w]! += delta[w]!;
    }
  }
  const scale = n / sources.length / ((n - 1) * (n - 2));
  for (let v = 0; v < n; v++) values[v]! *= scale;
  return { values, sources: sources.length };
}

function sampleIndices(n: number, k: number): number[] {
  const random = seededRandom(0x6d656d64);
  const pool = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(random() * (n - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, k);
}

function eigenvector(g: UndirectedGraph): Float64Array | null {
  if (g.order === 0) return new Float64Array(0);
  try {
    return byIndex(
      g.order,
      eigenvectorCentrality(g, { getEdgeWeight: 'weight', maxIterations: 1000, tolerance: 1e-6 }),
    );
  } catch {
    return null;
  }
}
