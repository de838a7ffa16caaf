import { describe, expect, it } from 'vitest';
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
