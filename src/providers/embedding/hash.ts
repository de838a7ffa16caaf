import type { EmbeddingProvider } from './types.js';
import { blankVector, isBlank, l2Norm } from './vector.js';

const DEFAULT_DIMENSIONS = 256;

/**
 * Feature hashing of lower-cased word unigrams and character trigrams into signed buckets.
 * Deterministic and instant, with no model: for tests and for running without any ML at all.
 * Similarity is lexical only (shared words and spellings), never semantic.
 */
export class HashEmbeddingProvider implements EmbeddingProvider {
  readonly name = 'hash';
  readonly model = 'feature-hash-v1';
  readonly dimensions: number;

  constructor(dimensions: number = DEFAULT_DIMENSIONS) {
    this.dimensions = dimensions;
  }

  async init(): Promise<void> {}

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((text) => this.embedOne(text));
  }

  private embedOne(text: string): Float32Array {
    if (isBlank(text)) return blankVector(this.dimensions);
    const vector = new Float32Array(this.dimensions);
    for (const feature of features(text)) {
      const hash = mix32(fnv1a(feature));
      // Low bits pick the bucket, the top bit the sign, so colliding features tend to cancel instead of piling up.
      vector[hash % this.dimensions]! += hash & 0x8000_0000 ? -1 : 1;
    }
    const norm = l2Norm(vector);
    // Every feature cancelled out (possible for a one-character text): fall back to the blank vector, never NaN.
    if (norm === 0) return blankVector(this.dimensions);
    for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
    return vector;
  }

  async close(): Promise<void> {}
}

/** Namespaced so that the word "the" and the trigram "the" land in different buckets. */
function* features(text: string): Generator<string> {
  const lower = text.toLowerCase();
  for (const word of lower.match(/[\p{L}\p{N}]+/gu) ?? []) yield `w:${word}`;
  // Trigrams over code points of the whitespace-collapsed text, padded so word edges count.
  const chars = Array.from(` ${lower.trim().replace(/\s+/g, ' ')} `);
  for (let i = 0; i + 3 <= chars.length; i++) yield `t:${chars[i]}${chars[i + 1]}${chars[i + 2]}`;
}

function fnv1a(input: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < input.length; i++) {
    hash ^= input.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** murmur3's finaliser: FNV alone leaves the low bits poorly mixed for short strings. */
function mix32(hash: number): number {
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
