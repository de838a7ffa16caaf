import usearch from 'usearch';
import { describe, expect, it } from 'vitest';
import { type IndexedMemory, NONE, vectorDigest, WorkspaceIndex } from '../../src/storage/sqlite/workspace-index.js';
import { seededVector } from '../support/records.js';

const DIMS = 4;

function emptyIndex(): WorkspaceIndex {
  return new WorkspaceIndex(
    new usearch.Index({
      dimensions: DIMS,
      metric: usearch.MetricKind.Cos,
      quantization: usearch.ScalarKind.F32,
      connectivity: 8,
      expansion_add: 32,
      expansion_search: 32,
      multi: false,
    }),
  );
}

/** Sets a memory as `WorkspaceVectorIndexes.upsert` does: a group it opens becomes a node of the graph. */
function set(index: WorkspaceIndex, seq: number, memory: IndexedMemory, vector: Float32Array): number | null {
  const opened = index.set(seq, memory, vector);
  if (opened !== null) index.graph.add(BigInt(opened), vector);
  return opened;
}

/** Every group's members, in order: seq and description. */
function groupsOf(index: WorkspaceIndex, keys: number[]): Array<Array<{ seq: number } & IndexedMemory>> {
  return keys.map((key) => {
    const members = [];
    for (let slot = index.firstMember(key); slot !== NONE; slot = index.nextMember(slot))
      members.push({ seq: index.seqAt(slot), ...index.describe(slot) });
    return members;
  });
}

const memory = (id: string, derived = false, factOf: string | null = null): IndexedMemory => ({ id, derived, factOf });

describe('a workspace index', () => {
  it('holds identical vectors as one node, their memories in the order they came', () => {
    const index = emptyIndex();
    const [a, b] = [seededVector(DIMS, 1), seededVector(DIMS, 2)];
    const keyA = set(index, 10, memory('mem_a1'), a);
    expect(keyA).not.toBeNull();
    expect(set(index, 11, memory('mem_a2', true, 'mem_a1'), a)).toBeNull();
    const keyB = set(index, 12, memory('mem_b'), b);
    expect(set(index, 13, memory('mem_a3'), Float32Array.from(a))).toBeNull();
    expect([index.nodes, index.size, index.graph.size()]).toEqual([2, 4, 2]);
    expect(groupsOf(index, [keyA!, keyB!])).toEqual([
      [
        { seq: 10, id: 'mem_a1', derived: false, factOf: null },
        { seq: 11, id: 'mem_a2', derived: true, factOf: 'mem_a1' },
        { seq: 13, id: 'mem_a3', derived: false, factOf: null },
      ],
      [{ seq: 12, id: 'mem_b', derived: false, factOf: null }],
    ]);
  });

  it('moves a memory set again to its new vector, and frees the node its group no longer needs', () => {
    const index = emptyIndex();
    const [a, b, c] = [1, 2, 3].map((seed) => seededVector(DIMS, seed));
    const keyA = set(index, 1, memory('m1'), a!)!;
    const keyB = set(index, 2, memory('m2'), b!)!;
    set(index, 3, memory('m3'), a!);
    // m1 leaves a's group for b's, where it comes last.
    expect(set(index, 1, memory('m1', true), b!)).toBeNull();
    expect(groupsOf(index, [keyA, keyB]).map((g) => g.map((m) => m.id))).toEqual([['m3'], ['m2', 'm1']]);
    // The last member out of a's group takes its node out of the graph; the next new vector is given its key.
    index.delete(3);
    expect([index.nodes, index.graph.size(), index.firstMember(keyA)]).toEqual([1, 1, NONE]);
    expect(set(index, 4, memory('m4'), c!)).toBe(keyA);
    expect(index.holds(4, memory('m4'), vectorDigest(c!))).toBe(true);
    expect(index.holds(3, memory('m3'), vectorDigest(a!))).toBe(false);
  });

  it('gives back from its snapshot what it held, and tells a changed memory from a held one', () => {
    const index = emptyIndex();
    const vectors = Array.from({ length: 40 }, (_, i) => seededVector(DIMS, i % 25));
    for (const [seq, v] of vectors.entries())
      set(index, seq, memory(`mem_${seq}`, seq % 3 === 0, seq % 3 ? null : `mem_${seq + 1}`), v);
    for (const seq of [5, 17, 30]) index.delete(seq);
    const snapshot = index.toSnapshot();
    const restored = emptyIndex();
    restored.restore(snapshot);
    expect(restored.toSnapshot()).toEqual(snapshot);
    expect([restored.size, restored.nodes]).toEqual([37, index.nodes]);
    expect([...restored.seqs()].sort((x, y) => x - y)).toEqual([...index.seqs()].sort((x, y) => x - y));
    expect(restored.holds(3, memory('mem_3', true, 'mem_4'), vectorDigest(vectors[3]!))).toBe(true);
    expect(restored.holds(3, memory('mem_3', true, null), vectorDigest(vectors[3]!))).toBe(false);
    expect(restored.holds(3, memory('mem_3', false, 'mem_4'), vectorDigest(vectors[3]!))).toBe(false);
    expect(restored.holds(3, memory('mem_x', true, 'mem_4'), vectorDigest(vectors[3]!))).toBe(false);
    expect(restored.holds(3, memory('mem_3', true, 'mem_4'), vectorDigest(vectors[4]!))).toBe(false);
    // Seqs 5 and 30 were one group's only members, 17 another's: their keys, freed before the snapshot, go to the
    // next new vectors.
    const freed = Array.from({ length: Math.max(...snapshot.keys) }, (_, key) => key).filter(
      (key) => !snapshot.keys.includes(key),
    );
    expect(freed).toHaveLength(2);
    const given = [100, 101].map((seq) => set(restored, seq, memory(`mem_${seq}`), seededVector(DIMS, seq * 7)));
    expect(given.sort((x, y) => x! - y!)).toEqual(freed);
  });

  it('agrees with a plain model through thousands of random writes, moves and deletions', () => {
    const index = emptyIndex();
    // Held: seq → description and vector seed; groups: vector seed → seqs in order.
    const held = new Map<number, { memory: IndexedMemory; seed: number }>();
    const groups = new Map<number, number[]>();
    // xorshift32: a fixed sequence, so a failure replays.
    let state = 12_345;
    const random = (n: number) => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) % n;
    };
    for (let step = 0; step < 20_000; step++) {
      const seq = random(800);
      const before = held.get(seq);
      if (before) groups.get(before.seed)!.splice(groups.get(before.seed)!.indexOf(seq), 1);
      if (random(4) === 0) {
        index.delete(seq);
        held.delete(seq);
        continue;
      }
      // Ids of many lengths, some not ASCII, so the text columns grow, leave bytes behind and compact.
      const seed = random(300);
      const described = memory(
        `mem_${seq}_${'é'.repeat(random(12))}${step}`,
        random(2) === 0,
        random(3) ? null : `p${step}`,
      );
      set(index, seq, described, seededVector(DIMS, seed));
      held.set(seq, { memory: described, seed });
      groups.set(seed, [...(groups.get(seed) ?? []), seq]);
    }
    const liveGroups = [...groups].filter(([, seqs]) => seqs.length > 0);
    expect(liveGroups.length).toBeGreaterThan(100);
    expect([index.size, index.nodes, index.graph.size()]).toEqual([held.size, liveGroups.length, liveGroups.length]);
    const snapshot = index.toSnapshot();
    const ordered = snapshot.keys.map((_, g) => snapshot.sizes[g]);
    expect(ordered.reduce((x, y) => x! + y!, 0)).toBe(held.size);
    for (const [seed, seqs] of liveGroups) {
      const digest = vectorDigest(seededVector(DIMS, seed));
      for (const seq of seqs) expect(index.holds(seq, held.get(seq)!.memory, digest)).toBe(true);
    }
    // The snapshot lists each group's members in the order they joined it.
    const listed: number[][] = [];
    for (let g = 0, at = 0; g < snapshot.keys.length; at += snapshot.sizes[g]!, g++)
      listed.push(snapshot.seqs.slice(at, at + snapshot.sizes[g]!));
    expect(listed.map((seqs) => seqs.join()).sort()).toEqual(liveGroups.map(([, seqs]) => seqs.join()).sort());
    expect(snapshot.ids).toEqual(snapshot.seqs.map((seq) => held.get(seq)!.memory.id));
    expect(snapshot.factOf).toEqual(snapshot.seqs.map((seq) => held.get(seq)!.memory.factOf));
  });
});
