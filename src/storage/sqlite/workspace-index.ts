import { createHash } from 'node:crypto';
import type { Index } from 'usearch';
import { DIGEST_BYTES, DigestTable } from './digest-table.js';
import { grown } from './grown.js';
import { TextColumn } from './text-column.js';

/** What the index knows of a memory besides its vector: enough to answer the common filters without SQL. */
export interface IndexedMemory {
  id: string;
  /** Derived from another memory (a fact, an insight). */
  derived: boolean;
  /** An atomic fact's parent. */
  factOf: string | null;
}

/**
 * A workspace's groups as a snapshot stores them: in columns, because JSON of an array per member made loading 164k
 * members cost 80 MB of heap more than building. Members are listed group by group, in the groups' order.
 */
export interface SnapshotGroups {
  keys: number[];
  /** Members per group. */
  sizes: number[];
  /** The groups' digests, 16 bytes each, concatenated, in base64. */
  digests: string;
  seqs: number[];
  ids: string[];
  /** One character per member: '1' derived, '0' not. */
  derived: string;
  factOf: Array<string | null>;
}

/**
 * The first 128 bits of the SHA-256 of the vector's bytes, as a 16-character latin1 string: identical vectors, and
 * only they, share it.
 */
export function vectorDigest(embedding: Float32Array | Uint8Array): string {
  return createHash('sha256')
    .update(new Uint8Array(embedding.buffer, embedding.byteOffset, embedding.byteLength))
    .digest()
    .toString('latin1', 0, DIGEST_BYTES);
}

/** No slot, no member: the end of a group's list, a free key's first member. */
export const NONE = -1;

/**
 * One workspace's graph and what it holds. Memories whose vectors are identical are one group, one node of the
 * graph under the group's key (`WorkspaceVectorIndexes` says why).
 *
 * Memories and groups are held in typed arrays, by slot and by key, not as objects: at a million memories their
 * objects were 293 of the 360 MiB of a process's heap after start, and every major garbage collection traced them,
 * taking both cores for 0.3-0.4 s in the slow runs of recall after an ingest (BENCHMARKS.md, "The vector index's
 * memory as typed arrays"). A slot holds a memory's seq, description and group, and the next member of its group;
 * a group lists its members in insertion order, from first to last.
 */
export class WorkspaceIndex {
  private readonly slotOfSeq = new Map<number, number>();
  /** Slots below this have been used; the free ones among them are listed. */
  private slotsUsed = 0;
  private readonly freeSlots: number[] = [];
  private seqOf = new Float64Array(1024);
  private groupOf = new Int32Array(1024);
  private nextOf = new Int32Array(1024);
  /** 1 derived, 0 not. */
  private derivedOf = new Uint8Array(1024);
  private readonly ids = new TextColumn();
  private readonly factOf = new TextColumn();

  /** Keys below this have been used; keys of emptied groups are listed and given to new ones. */
  private keysUsed = 0;
  private readonly freeKeys: number[] = [];
  private firstOf = new Int32Array(1024).fill(NONE);
  private lastOf = new Int32Array(1024).fill(NONE);
  private readonly digests = new DigestTable();

  constructor(readonly graph: Index) {}

  /** Nodes of the graph: one per group. */
  get nodes(): number {
    return this.digests.size;
  }

  /** Memories held. */
  get size(): number {
    return this.slotOfSeq.size;
  }

  seqs(): IterableIterator<number> {
    return this.slotOfSeq.keys();
  }

  /** The first member of the group under `key` (NONE for a key that names no group), then `nextMember`. */
  firstMember(key: number): number {
    return key >= 0 && key < this.keysUsed ? this.firstOf[key]! : NONE;
  }

  nextMember(slot: number): number {
    return this.nextOf[slot]!;
  }

  seqAt(slot: number): number {
    return this.seqOf[slot]!;
  }

  idAt(slot: number): string {
    return this.ids.get(slot)!;
  }

  derivedAt(slot: number): boolean {
    return this.derivedOf[slot] === 1;
  }

  factOfAt(slot: number): string | null {
    return this.factOf.get(slot);
  }

  describe(slot: number): IndexedMemory {
    return { id: this.idAt(slot), derived: this.derivedAt(slot), factOf: this.factOfAt(slot) };
  }

  /** One view for a filter to read member after member (`MemberView`). */
  view(): MemberView {
    return new MemberView(this);
  }

  /**
   * Adds the memory, or moves it to its new vector's group. Answers the key of a group it opened, which the graph
   * must then be given.
   */
  set(seq: number, memory: IndexedMemory, embedding: Float32Array): number | null {
    this.delete(seq);
    const digest = vectorDigest(embedding);
    const slot = this.newSlot(seq, memory);
    const existing = this.digests.find(digest);
    if (existing !== NONE) {
      this.append(existing, slot);
      return null;
    }
    const key = this.freeKeys.pop() ?? this.newKey();
    this.digests.add(key, digest);
    this.append(key, slot);
    return key;
  }

  /** Whether the memory is held with exactly this vector and description (a restored snapshot is checked so). */
  holds(seq: number, memory: IndexedMemory, digest: string): boolean {
    const slot = this.slotOfSeq.get(seq);
    if (slot === undefined) return false;
    const held = this.describe(slot);
    return (
      this.digests.find(digest) === this.groupOf[slot] &&
      held.id === memory.id &&
      held.derived === memory.derived &&
      held.factOf === memory.factOf
    );
  }

  /** The groups as a snapshot stores them, beside the graph's own file. */
  toSnapshot(): SnapshotGroups {
    const columns: SnapshotGroups = { keys: [], sizes: [], digests: '', seqs: [], ids: [], derived: '', factOf: [] };
    const digests: string[] = [];
    const derived: string[] = [];
    for (let key = 0; key < this.keysUsed; key++) {
      if (this.firstOf[key] === NONE) continue;
      columns.keys.push(key);
      digests.push(this.digests.digestOf(key));
      let size = 0;
      for (let slot = this.firstOf[key]!; slot !== NONE; slot = this.nextOf[slot]!, size++) {
        const memory = this.describe(slot);
        columns.seqs.push(this.seqOf[slot]!);
        columns.ids.push(memory.id);
        derived.push(memory.derived ? '1' : '0');
        columns.factOf.push(memory.factOf);
      }
      columns.sizes.push(size);
    }
    columns.digests = Buffer.from(digests.join(''), 'latin1').toString('base64');
    columns.derived = derived.join('');
    return columns;
  }

  /** Takes back the groups of a snapshot whose graph was loaded into `graph`. */
  restore({ keys, sizes, digests, seqs, ids, derived, factOf }: SnapshotGroups): void {
    const digestBytes = Buffer.from(digests, 'base64').toString('latin1');
    this.reserveSlots(seqs.length);
    let at = 0;
    keys.forEach((key, g) => {
      this.reserveKeys(key + 1);
      this.keysUsed = Math.max(this.keysUsed, key + 1);
      this.digests.add(key, digestBytes.slice(DIGEST_BYTES * g, DIGEST_BYTES * (g + 1)));
      for (const end = at + sizes[g]!; at < end; at++) {
        const slot = this.newSlot(seqs[at]!, { id: ids[at]!, derived: derived[at] === '1', factOf: factOf[at]! });
        this.append(key, slot);
      }
    });
    for (let key = 0; key < this.keysUsed; key++) if (this.firstOf[key] === NONE) this.freeKeys.push(key);
  }

  /** Removes the memory; the last member out of a group takes its node out of the graph. */
  delete(seq: number): void {
    const slot = this.slotOfSeq.get(seq);
    if (slot === undefined) return;
    this.slotOfSeq.delete(seq);
    this.ids.clear(slot);
    this.factOf.clear(slot);
    this.freeSlots.push(slot);
    const key = this.groupOf[slot]!;
    this.unlink(key, slot);
    if (this.firstOf[key] !== NONE) return;
    this.digests.delete(key);
    this.freeKeys.push(key);
    this.graph.remove(BigInt(key));
  }

  private newSlot(seq: number, memory: IndexedMemory): number {
    const slot = this.freeSlots.pop() ?? this.slotsUsed++;
    this.reserveSlots(slot + 1);
    this.slotOfSeq.set(seq, slot);
    this.seqOf[slot] = seq;
    this.derivedOf[slot] = memory.derived ? 1 : 0;
    this.ids.set(slot, memory.id);
    this.factOf.set(slot, memory.factOf);
    return slot;
  }

  private newKey(): number {
    const key = this.keysUsed++;
    this.reserveKeys(key + 1);
    return key;
  }

  /** Makes `slot` the last member of the group under `key`. */
  private append(key: number, slot: number): void {
    this.groupOf[slot] = key;
    this.nextOf[slot] = NONE;
    const last = this.lastOf[key]!;
    if (last === NONE) this.firstOf[key] = slot;
    else this.nextOf[last] = slot;
    this.lastOf[key] = slot;
  }

  /** Takes `slot` out of the list of the group under `key`: most groups have one member, a few thousands. */
  private unlink(key: number, slot: number): void {
    let before = NONE;
    for (let s = this.firstOf[key]!; s !== slot; s = this.nextOf[s]!) before = s;
    const after = this.nextOf[slot]!;
    if (before === NONE) this.firstOf[key] = after;
    else this.nextOf[before] = after;
    if (this.lastOf[key] === slot) this.lastOf[key] = before;
  }

  private reserveSlots(count: number): void {
    if (count <= this.seqOf.length) return;
    this.seqOf = grown(this.seqOf, count);
    this.groupOf = grown(this.groupOf, count);
    this.nextOf = grown(this.nextOf, count);
    this.derivedOf = grown(this.derivedOf, count);
    this.ids.reserveSlots(count);
    this.factOf.reserveSlots(count);
  }

  private reserveKeys(count: number): void {
    this.firstOf = grown(this.firstOf, count, NONE);
    this.lastOf = grown(this.lastOf, count, NONE);
  }
}

/**
 * A member as a filter reads it, each field decoded only when read: a filter for originals passes over a group of
 * thousands of identical facts (enrichment's neighbours, the write path's duplicate check) without decoding their
 * ids. One view is moved from member to member (`at`), so a filter must not keep it.
 */
export class MemberView implements IndexedMemory {
  private slot = NONE;

  constructor(private readonly index: WorkspaceIndex) {}

  at(slot: number): this {
    this.slot = slot;
    return this;
  }

  get id(): string {
    return this.index.idAt(this.slot);
  }

  get derived(): boolean {
    return this.index.derivedAt(this.slot);
  }

  get factOf(): string | null {
    return this.index.factOfAt(this.slot);
  }
}
