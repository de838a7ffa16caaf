import usearch, { type Index, type ScalarKind } from 'usearch';

export interface VectorIndexOptions {
  dimensions: number;
  /** Storage precision inside the index; candidates are re-scored exactly from the database. */
  quantization: 'f32' | 'f16' | 'i8';
  connectivity: number;
  expansionAdd: number;
  expansionSearch: number;
}

export const DEFAULT_VECTOR_INDEX: Omit<VectorIndexOptions, 'dimensions'> = {
  quantization: 'f16',
  connectivity: 16,
  expansionAdd: 64,
  expansionSearch: 96,
};

export interface Neighbour {
  seq: number;
  /** Approximate cosine similarity (1 - index distance). */
  similarity: number;
}

/**
 * One in-memory HNSW graph per workspace (usearch), keyed by `memories.seq`. It holds searchable memories only
 * and is always rebuilt from the database, so a crash can never leave it ahead of or behind committed data.
 */
export class WorkspaceVectorIndexes {
  private readonly indexes = new Map<string, Index>();

  constructor(private readonly options: VectorIndexOptions) {}

  private indexFor(workspaceId: string): Index {
    let index = this.indexes.get(workspaceId);
    if (!index) {
      index = new usearch.Index({
        dimensions: this.options.dimensions,
        metric: usearch.MetricKind.Cos,
        quantization: this.options.quantization as ScalarKind,
        connectivity: this.options.connectivity,
        expansion_add: this.options.expansionAdd,
        expansion_search: this.options.expansionSearch,
        multi: false,
      });
      this.indexes.set(workspaceId, index);
    }
    return index;
  }

  /** Adds or replaces vectors. */
  upsert(workspaceId: string, entries: ReadonlyArray<{ seq: number; embedding: Float32Array }>): void {
    if (entries.length === 0) return;
    const index = this.indexFor(workspaceId);
    for (const { seq, embedding } of entries) {
      const key = BigInt(seq);
      if (index.contains(key)) index.remove(key);
      index.add(key, embedding);
    }
  }

  remove(workspaceId: string, seqs: readonly number[]): void {
    const index = this.indexes.get(workspaceId);
    if (!index) return;
    for (const seq of seqs) {
      const key = BigInt(seq);
      if (index.contains(key)) index.remove(key);
    }
  }

  drop(workspaceId: string): void {
    this.indexes.delete(workspaceId);
  }

  size(workspaceId: string): number {
    return this.indexes.get(workspaceId)?.size() ?? 0;
  }

  search(workspaceId: string, vector: Float32Array, k: number): Neighbour[] {
    const index = this.indexes.get(workspaceId);
    if (!index || index.size() === 0 || k <= 0) return [];
    const matches = index.search(vector, Math.min(k, index.size()), 1);
    const found: Neighbour[] = [];
    for (let i = 0; i < matches.keys.length; i++) {
      found.push({ seq: Number(matches.keys[i]), similarity: 1 - matches.distances[i]! });
    }
    return found;
  }

  clear(): void {
    this.indexes.clear();
  }
}
