import type { Adjacency, CompactGraph } from './compact.js';

export interface Biconnectivity {
  /** Nodes whose removal disconnects their component. */
  articulationPoints: number[];
  /** Pairs (indices into the compact graph) whose removal disconnects their component. */
  bridges: number[];
  /** Connected component of each node, numbered from 0 in order of first node. */
  componentOf: Int32Array;
  componentCount: number;
}

/**
 * Tarjan's depth-first low-link algorithm, iterative so that a long chain of ten thousand memories cannot overflow
 * the call stack: one pass finds articulation points, bridges and connected components in O(nodes + pairs).
 * graphology offers no bridge or articulation-point routine.
 */
export function biconnectivity(graph: CompactGraph, adj: Adjacency): Biconnectivity {
  const n = graph.order;
  const discovered = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const componentOf = new Int32Array(n).fill(-1);
  const articulation = new Uint8Array(n);
  const bridges: number[] = [];
  // The DFS stack: the node, the pair it was entered through (so that pair is not taken back), the next neighbour slot.
  const stackNode = new Int32Array(n);
  const stackVia = new Int32Array(n);
  const stackNext = new Uint32Array(n);
  let clock = 0;
  let componentCount = 0;

  for (let root = 0; root < n; root++) {
    if (discovered[root] !== -1) continue;
    let rootChildren = 0;
    let top = 0;
    stackNode[0] = root;
    stackVia[0] = -1;
    stackNext[0] = adj.starts[root]!;
    discovered[root] = low[root] = clock++;
    componentOf[root] = componentCount;
    while (top >= 0) {
      const v = stackNode[top]!;
      if (stackNext[top]! < adj.starts[v + 1]!) {
        const slot = stackNext[top]!++;
        const w = adj.neighbour[slot]!;
        const via = adj.pair[slot]!;
        if (via === stackVia[top]) continue;
        if (discovered[w] === -1) {
          discovered[w] = low[w] = clock++;
          componentOf[w] = componentCount;
          if (v === root) rootChildren++;
          top++;
          stackNode[top] = w;
          stackVia[top] = via;
          stackNext[top] = adj.starts[w]!;
        } else if (discovered[w]! < low[v]!) {
          low[v] = discovered[w]!;
        }
      } else {
        top--;
        if (top < 0) break;
        const parent = stackNode[top]!;
        if (low[v]! < low[parent]!) low[parent] = low[v]!;
        if (low[v]! > discovered[parent]!) bridges.push(stackVia[top + 1]!);
        if (parent !== root && low[v]! >= discovered[parent]!) articulation[parent] = 1;
      }
    }
    if (rootChildren > 1) articulation[root] = 1;
    componentCount++;
  }

  const articulationPoints: number[] = [];
  articulation.forEach((flag, v) => {
    if (flag) articulationPoints.push(v);
  });
  return { articulationPoints, bridges: bridges.sort((x, y) => x - y), componentOf, componentCount };
}
