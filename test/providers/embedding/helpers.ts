import { expect } from 'vitest';

export function dot(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const [x, y] = [Float32Array.from(a), Float32Array.from(b)];
  return dot(x, y) / Math.sqrt(dot(x, x) * dot(y, y));
}

/** Every vector has `dimensions` finite components and unit length. */
export function expectUnitVectors(vectors: Float32Array[], dimensions: number): void {
  expect(vectors.length).toBeGreaterThan(0);
  for (const vector of vectors) {
    expect(vector).toBeInstanceOf(Float32Array);
    expect(vector.length).toBe(dimensions);
    expect(vector.every(Number.isFinite)).toBe(true);
    expect(Math.sqrt(dot(vector, vector))).toBeCloseTo(1, 5);
  }
}

/** Texts of very different lengths, so that length-sorted batching really reorders them. */
export function mixedLengthTexts(count: number): string[] {
  const topics = [
    'green tea',
    'the Postgres migration',
    'a flight to Tokyo',
    'peanut allergies',
    'quarterly revenue',
    'the dentist',
    'Rust generics',
    'a birthday party',
  ];
  return Array.from({ length: count }, (_, i) => {
    const topic = topics[i % topics.length]!;
    const padding = ' and then some more detail about it'.repeat((i * 7) % 11);
    return `Note ${i}: the user talked about ${topic}${padding}.`;
  });
}
