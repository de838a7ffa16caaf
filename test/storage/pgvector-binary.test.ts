import { describe, expect, it } from 'vitest';
import { fromPgvectorBinary, pgvectorBinary } from '../../src/storage/postgres/search-engine.js';

describe("pgvector's binary form", () => {
  it('is the dimensions, an unused word and each float, big endian', () => {
    const bytes = pgvectorBinary(Float32Array.of(1, -2, 0.5));
    expect(bytes.toString('hex')).toBe(['0003', '0000', '3f800000', 'c0000000', '3f000000'].join(''));
  });

  it('reads back every float as written, from a vector that is a view into a larger buffer', () => {
    const backing = new Float32Array(300).map((_, i) => Math.sin(i) * 10 ** ((i % 9) - 4));
    const vector = backing.subarray(17, 17 + 256);
    expect(Array.from(fromPgvectorBinary(pgvectorBinary(vector)))).toEqual(Array.from(vector));
  });

  it('refuses a value whose length is not that of its dimensions', () => {
    const bytes = pgvectorBinary(Float32Array.of(1, 2, 3));
    expect(() => fromPgvectorBinary(bytes.subarray(0, bytes.length - 1))).toThrow(/wrong length/);
  });
});
