import { describe, expect, it } from 'vitest';
import { cosine } from '../../src/providers/embedding/vector.js';
import { DEFAULT_VECTOR_INDEX, WorkspaceVectorIndexes } from '../../src/storage/sqlite/vector-index.js';
import { seededVector } from '../support/records.js';

const DIMS = 24;

const seeded = (seed: number): Float32Array => seededVector(DIMS, seed);

/** 600 memories, every fifth an original and the rest derived (facts), so a filter for originals rejects most. */
function indexes(): WorkspaceVectorIndexes {
  const held = new WorkspaceVectorIndexes({ ...DEFAULT_VECTOR_INDEX, dimensions: DIMS });
  held.upsert(
    'ws',
    Array.from({ length: 600 }, (_, seq) => ({
      seq,
      id: `m${seq}`,
      derived: seq % 5 !== 0,
      factOf: null,
      embedding: seeded(seq),
    })),
  );
  return held;
}

describe('several vectors searched in one call', () => {
  const held = indexes();
  const queries = [3, 10, 250, 599, 1_000, 1_001].map(seeded);
  const ids = (found: ReturnType<WorkspaceVectorIndexes['search']>) =>
    found.map((hits) => hits.map((h) => h.memory.id));

  it('answer as each searched alone', () => {
    const together = held.search('ws', queries, 5);
    expect(together.every((hits) => hits.length === 5)).toBe(true);
    expect(ids(together)).toEqual(queries.map((q) => ids(held.search('ws', [q], 5))[0]));
    // A stored vector finds itself first.
    expect(together[0]![0]!.memory.id).toBe('m3');
  });

  it('still fill k when the filter rejects most of the first answer', () => {
    const originals = (m: { derived: boolean }) => !m.derived;
    const together = held.search('ws', queries, 12, originals);
    expect(together.every((hits) => hits.length === 12 && hits.every((h) => !h.memory.derived))).toBe(true);
    expect(ids(together)).toEqual(queries.map((q) => ids(held.search('ws', [q], 12, originals))[0]));
    expect(together[2]![0]!.memory.id).toBe('m250');
  });
});

describe('the beam a search walks', () => {
  const dims = 48;
  const count = 4_000;
  const vectors = Array.from({ length: count }, (_, seq) => seededVector(dims, seq + 7));
  const held = new WorkspaceVectorIndexes({ ...DEFAULT_VECTOR_INDEX, dimensions: dims });
  held.upsert(
    'ws',
    vectors.map((embedding, seq) => ({ seq, id: `m${seq}`, derived: false, factOf: null, embedding })),
  );
  const queries = Array.from({ length: 200 }, (_, i) => seededVector(dims, 100_000 + i));
  const exactNearest = (query: Float32Array, k: number): number[] =>
    vectors
      .map((v, seq) => ({ seq, similarity: cosine(v, query) }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, k)
      .map((n) => n.seq);
  const exact = queries.map((query) => new Set(exactNearest(query, 5)));
  const shareFound = (beam?: number): number => {
    let found = 0;
    for (const [i, query] of queries.entries()) {
      const [hits] = held.search('ws', [query], 5, undefined, beam);
      found += hits!.filter((h) => exact[i]!.has(h.seq)).length;
    }
    return found / (queries.length * 5);
  };

  it("is recall's wide one unless a search asks for its own", () => {
    const wide = shareFound();
    // A search for 5 walks recall's beam, not 5 + 8 candidates: on random vectors that is most of the difference.
    expect(wide).toBeGreaterThanOrEqual(0.97);
    expect(shareFound(DEFAULT_VECTOR_INDEX.expansionSearch)).toBe(wide);
    expect(shareFound(1)).toBeLessThan(wide - 0.05);
  });
});
