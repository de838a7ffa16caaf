import usearch, { type Index, type ScalarKind } from 'usearch';

export interface VectorIndexOptions {
  dimensions: number;
  /**
   * Storage precision inside the index. f16 holds half of f32's bytes per vector and searches faster, with
   * similarities within 0.0001 of exact (bench:recall). i8 was faster still, but its graphs varied from 0.90 to
   * 0.97 recall@10 between builds and its similarities were off by up to 0.014.
   */
  quantization: 'f32' | 'f16' | 'i8';
  connectivity: number;
  expansionAdd: number;
  expansionSearch: number;
}

export const DEFAULT_VECTOR_INDEX: Omit<VectorIndexOptions, 'dimensions'> = {
  quantization: 'f16',
  connectivity: 16,
  // 128 rather than 64: a better-connected graph (f16 recall@10 0.973 and 0.982 from recall's candidates).
  expansionAdd: 128,
  expansionSearch: 96,
};

/** What the index knows of a memory besides its vector: enough to answer the common filters without SQL. */
export interface IndexedMemory {
  id: string;
  /** Derived from another memory (a fact, an insight). */
  derived: boolean;
  /** An atomic fact's parent. */
  factOf: string | null;
}

export interface IndexEntry extends IndexedMemory {
  seq: number;
  embedding: Float32Array;
}

export interface Neighbour {
  seq: number;
  memory: IndexedMemory;
  /** Cosine similarity (1 - index distance). */
  similarity: number;
}

/**
 * The keys of a search result as numbers. Read as 32-bit halves: converting each 64-bit key through a BigInt
 * cost a recall about 0.2 ms at 200 keys (CPU profile of bench:recall-profile).
 */
function keysAsNumbers(keys: BigUint64Array): Float64Array {
  const halves = new Uint32Array(keys.buffer, keys.byteOffset, keys.length * 2);
  const numbers = new Float64Array(keys.length);
  // Little-endian on every platform Node runs on.
  for (let i = 0; i < keys.length; i++) numbers[i] = halves[2 * i]! + halves[2 * i + 1]! * 2 ** 32;
  return numbers;
}

class WorkspaceIndex {
  readonly memories = new Map<number, IndexedMemory>();

  constructor(readonly graph: Index) {}
}

/**
 * One in-memory HNSW graph per workspace (usearch), keyed by `memories.seq`, holding the active memories only. It is
 * always rebuilt from the database, so a crash can never leave it ahead of or behind committed data.
 */
export class WorkspaceVectorIndexes {
  private readonly workspaces = new Map<string, WorkspaceIndex>();

  constructor(private readonly options: VectorIndexOptions) {}

  private indexFor(workspaceId: string): WorkspaceIndex {
    let entry = this.workspaces.get(workspaceId);
    if (!entry) {
      entry = new WorkspaceIndex(
        new usearch.Index({
          dimensions: this.options.dimensions,
          metric: usearch.MetricKind.Cos,
          quantization: this.options.quantization as ScalarKind,
          connectivity: this.options.connectivity,
          expansion_add: this.options.expansionAdd,
          expansion_search: this.options.expansionSearch,
          multi: false,
        }),
      );
      this.workspaces.set(workspaceId, entry);
    }
    return entry;
  }

  /** Adds or replaces vectors; a batch is inserted by usearch on all cores. */
  upsert(workspaceId: string, entries: readonly IndexEntry[]): void {
    if (entries.length === 0) return;
    const { graph, memories } = this.indexFor(workspaceId);
    const dims = this.options.dimensions;
    const keys = new BigUint64Array(entries.length);
    const matrix = new Float32Array(entries.length * dims);
    entries.forEach((entry, i) => {
      keys[i] = BigInt(entry.seq);
      matrix.set(entry.embedding, i * dims);
      if (memories.has(entry.seq)) graph.remove(keys[i]!);
      memories.set(entry.seq, { id: entry.id, derived: entry.derived, factOf: entry.factOf });
    });
    graph.add(keys, matrix, 0);
  }

  remove(workspaceId: string, seqs: readonly number[]): void {
    const entry = this.workspaces.get(workspaceId);
    if (!entry) return;
    for (const seq of seqs) {
      if (entry.memories.delete(seq)) entry.graph.remove(BigInt(seq));
    }
  }

  drop(workspaceId: string): void {
    this.workspaces.delete(workspaceId);
  }

  size(workspaceId: string): number {
    return this.workspaces.get(workspaceId)?.memories.size ?? 0;
  }

  /**
   * The k nearest memories that `accept` lets through. Asks the graph for more when the filter rejects too many,
   * up to the whole workspace, so the answer has k hits whenever k exist.
   */
  search(workspaceId: string, vectors: readonly Float32Array[], k: number, accept: (m: IndexedMemory) => boolean = () => true): Neighbour[][] {
    const entry = this.workspaces.get(workspaceId);
    const size = entry?.memories.size ?? 0;
    if (!entry || size === 0 || k <= 0) return vectors.map(() => []);
    return vectors.map((vector) => {
      for (let wanted = Math.min(size, k + 8); ; wanted = Math.min(size, wanted * 4)) {
        const matches = entry.graph.search(vector, wanted, 1);
        const found: Neighbour[] = [];
        const { distances } = matches;
        const keys = keysAsNumbers(matches.keys);
        for (let i = 0; i < keys.length && found.length < k; i++) {
          const seq = keys[i]!;
          const memory = entry.memories.get(seq);
          if (memory && accept(memory)) found.push({ seq, memory, similarity: 1 - distances[i]! });
        }
        if (found.length >= k || wanted >= size) return found;
      }
    });
  }

  clear(): void {
    this.workspaces.clear();
  }
}
