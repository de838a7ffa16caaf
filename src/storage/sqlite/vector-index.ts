import usearch, { type ScalarKind } from 'usearch';
import { STORAGE } from '../../config/settings/storage.js';
import { readSnapshot, writeSnapshot } from './vector-snapshot.js';
import { type IndexedMemory, NONE, vectorDigest, WorkspaceIndex } from './workspace-index.js';

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
  /** Recall's beam: how many candidates a search walks the graph for unless it asks for its own (`search`). */
  expansionSearch: number;
}

export const DEFAULT_VECTOR_INDEX: Omit<VectorIndexOptions, 'dimensions'> = {
  quantization: 'f16',
  connectivity: 16,
  // The setting's default (why 128: its declaration); a server passes the configured value (storage/index.ts).
  expansionAdd: STORAGE.insertBeam.read({}),
  expansionSearch: 96,
};

export interface IndexEntry extends IndexedMemory {
  seq: number;
  embedding: Float32Array;
}

/** A memory as the database holds it, its vector as the stored float32 bytes (decoded only if the index needs it). */
export interface StoredEntry extends IndexedMemory {
  seq: number;
  vector: Uint8Array;
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

/**
 * One in-memory HNSW graph per workspace (usearch), holding the active memories only. It is built from the database
 * at start, or loaded from the snapshot the last clean stop wrote and then checked against the database memory by
 * memory (`confirm`, `dropUnverified`), so a crash can never leave it ahead of or behind committed data.
 *
 * Identical vectors are one node of the graph. Atomic facts repeat (every memory that ends "Keep this in mind when
 * scheduling." has that fact), and thousands of nodes at distance zero from each other trap the greedy search:
 * with 5 groups of about 6,500 copies among 164k vectors, 2-5% of the exact top 10 went unfound, at every rank
 * (bench:recall, BENCHMARKS.md). A node's key names its group; a search answers with every member.
 */
export class WorkspaceVectorIndexes {
  private readonly workspaces = new Map<string, WorkspaceIndex>();
  /** Memories of a loaded snapshot that the database has not yet been seen to hold as they are. */
  private readonly unverified = new Map<string, Set<number>>();

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
          // usearch walks max(this, results asked) candidates: at 1 each search sets its own beam (`search`).
          expansion_search: 1,
          multi: false,
        }),
      );
      this.workspaces.set(workspaceId, entry);
    }
    return entry;
  }

  /** Adds or replaces vectors; the new nodes of a batch are inserted by usearch on all cores. */
  upsert(workspaceId: string, entries: readonly IndexEntry[]): void {
    if (entries.length === 0) return;
    const index = this.indexFor(workspaceId);
    const dims = this.options.dimensions;
    const added: Array<{ key: number; embedding: Float32Array }> = [];
    // The last entry of a memory wins: a memory set twice here could free a key this batch has yet to add.
    const latest = new Map(entries.map((entry) => [entry.seq, entry]));
    const unverified = this.unverified.get(workspaceId);
    for (const { seq, id, derived, factOf, embedding } of latest.values()) {
      unverified?.delete(seq);
      const opened = index.set(seq, { id, derived, factOf }, embedding);
      if (opened !== null) added.push({ key: opened, embedding });
    }
    if (added.length === 0) return;
    const keys = BigUint64Array.from(added, ({ key }) => BigInt(key));
    const matrix = new Float32Array(added.length * dims);
    added.forEach(({ embedding }, i) => {
      matrix.set(embedding, i * dims);
    });
    index.graph.add(keys, matrix, 0);
  }

  remove(workspaceId: string, seqs: readonly number[]): void {
    const index = this.workspaces.get(workspaceId);
    if (!index) return;
    const unverified = this.unverified.get(workspaceId);
    for (const seq of seqs) {
      unverified?.delete(seq);
      index.delete(seq);
    }
  }

  drop(workspaceId: string): void {
    this.workspaces.delete(workspaceId);
    this.unverified.delete(workspaceId);
  }

  /** Writes every graph and its groups under `dir` (vector-snapshot.ts); answers the snapshot's seal. */
  save(dir: string): string {
    return writeSnapshot(
      dir,
      this.options,
      [...this.workspaces].map(([workspaceId, index]) => ({
        workspaceId,
        graph: index.graph,
        groups: index.toSnapshot(),
      })),
    );
  }

  /**
   * Replaces what is held with the snapshot under `dir` when there is a usable one made with these options.
   * 'sealed' when its seal is `sealed` (what the database held at its last clean close, not opened since): it holds
   * exactly the database's active vectors. 'unverified' otherwise: its memories stay unverified until `confirm` finds
   * them in the database as they are, and `dropUnverified` removes the rest. 'none' (and nothing held) when there is
   * none or it does not load: the caller builds from the database.
   */
  load(dir: string, sealed: string | null = null): 'sealed' | 'unverified' | 'none' {
    this.clear();
    const snapshot = readSnapshot(dir, this.options);
    if (!snapshot) return 'none';
    const trusted = sealed !== null && snapshot.seal === sealed;
    try {
      for (const { workspaceId, graph, groups } of snapshot.workspaces) {
        const index = this.indexFor(workspaceId);
        index.graph.load(graph);
        index.restore(groups);
        if (index.graph.size() !== index.nodes)
          throw new Error(`the graph of ${workspaceId} has ${index.graph.size()} nodes, its groups ${index.nodes}`);
        if (!trusted) this.unverified.set(workspaceId, new Set(index.seqs()));
      }
      return trusted ? 'sealed' : 'unverified';
    } catch {
      // A damaged snapshot is only lost time: build from the database instead.
      this.clear();
      return 'none';
    }
  }

  /** How many memories the graphs of every workspace hold. */
  totalSize(): number {
    let n = 0;
    for (const index of this.workspaces.values()) n += index.size;
    return n;
  }

  /**
   * Memories as the database holds them, during warm-up after `load`: those the snapshot holds with the same vector
   * and description are confirmed, the others are decoded and upserted. Answers how many were confirmed. The stored
   * bytes are hashed as they are (the digest is of the same bytes), so unchanged vectors are never decoded.
   */
  confirm(workspaceId: string, entries: readonly StoredEntry[], decode: (vector: Uint8Array) => Float32Array): number {
    const index = this.workspaces.get(workspaceId);
    const unverified = this.unverified.get(workspaceId);
    const changed: IndexEntry[] = [];
    for (const { vector, ...memory } of entries) {
      if (index?.holds(memory.seq, memory, vectorDigest(vector))) unverified?.delete(memory.seq);
      else changed.push({ ...memory, embedding: decode(vector) });
    }
    this.upsert(workspaceId, changed);
    return entries.length - changed.length;
  }

  /** After warm-up has confirmed what the database holds: the snapshot's memories it did not hold are removed. */
  dropUnverified(): void {
    for (const [workspaceId, seqs] of this.unverified) this.remove(workspaceId, [...seqs]);
    this.unverified.clear();
  }

  size(workspaceId: string): number {
    return this.workspaces.get(workspaceId)?.size ?? 0;
  }

  /**
   * The k nearest memories that `accept` lets through. Asks the graph for more when the filter rejects too many,
   * up to the whole workspace, so the answer has k hits whenever k exist. `beam`: how many candidates the graph is
   * walked for at least (recall's `expansionSearch` unless a near-duplicate check asks for a narrower one).
   * `accept` reads each member through a view that the next member reuses (`MemberView`): it must not keep it.
   */
  search(
    workspaceId: string,
    vectors: readonly Float32Array[],
    k: number,
    accept: (m: IndexedMemory) => boolean = () => true,
    beam: number = this.options.expansionSearch,
  ): Neighbour[][] {
    const index = this.workspaces.get(workspaceId);
    const nodes = index?.nodes ?? 0;
    if (!index || nodes === 0 || k <= 0) return vectors.map(() => []);
    const first = Math.min(nodes, k + 8);
    // The graph is asked for at least the beam (usearch walks max(its expansion, results asked), its expansion is 1)
    // and only the `wanted` best are read: the same answer as an index built with that beam.
    const walked = (wanted: number) => Math.min(nodes, Math.max(wanted, beam));
    // Several vectors (a write batch's duplicate checks, an enrichment batch's neighbours) go to the graph in one
    // call, which usearch spreads over every core: the write path's searches held the main thread for a third of
    // an ingest (BENCHMARKS.md, "Ingest and the HNSW work").
    const together = vectors.length > 1 ? index.graph.search([...vectors], walked(first), 0) : null;
    const view = index.view();
    return vectors.map((vector, v) => {
      for (let wanted = first; ; wanted = Math.min(nodes, wanted * 4)) {
        const matches = together && wanted === first ? together.get(v) : index.graph.search(vector, walked(wanted), 1);
        const found: Neighbour[] = [];
        const { distances } = matches;
        const keys = keysAsNumbers(matches.keys);
        for (let i = 0; i < Math.min(keys.length, wanted) && found.length < k; i++) {
          const similarity = 1 - distances[i]!;
          for (let slot = index.firstMember(keys[i]!); slot !== NONE; slot = index.nextMember(slot)) {
            if (accept(view.at(slot))) found.push({ seq: index.seqAt(slot), memory: index.describe(slot), similarity });
            if (found.length === k) break;
          }
        }
        if (found.length >= k || wanted >= nodes) return found;
      }
    });
  }

  clear(): void {
    this.workspaces.clear();
    this.unverified.clear();
  }
}
