import { isUnspaced, keywordWords, PAIRED_CHARACTERS, unspacedRuns } from '../../text/keyword-text.js';
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
    return featureHashVector(text, this.dimensions);
  }

  async close(): Promise<void> {}
}

/**
 * A text's words and character trigrams hashed into `dimensions` signed buckets, as a unit vector: lexical similarity
 * only. The hash provider's vectors, and the local model's for text it cannot read (use-lite.ts).
 */
export function featureHashVector(text: string, dimensions: number): Float32Array {
  if (isBlank(text)) return blankVector(dimensions);
  const vector = new Float32Array(dimensions);
  for (const feature of features(text)) {
    const hash = mix32(fnv1a(feature));
    // Low bits pick the bucket, the top bit the sign, so colliding features tend to cancel instead of piling up.
    vector[hash % dimensions]! += hash & 0x8000_0000 ? -1 : 1;
  }
  const norm = l2Norm(vector);
  // Every feature cancelled out (possible for a one-character text): fall back to the blank vector, never NaN.
  if (norm === 0) return blankVector(dimensions);
  for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  return vector;
}

/**
 * Namespaced so that the word "the" and the trigram "the" land in different buckets. A run of an unspaced script
 * (Chinese, Japanese, Korean, Thai, Lao, Khmer, Burmese) is one "word" to the pattern, so its pairs of characters, the words the keyword index holds of it
 * (text/keyword-text.ts), are features too: "咖啡" and "我喜欢喝咖啡" share none of their words or trigrams otherwise.
 */
function* features(text: string): Generator<string> {
  const lower = text.toLowerCase();
  for (const word of lower.match(/[\p{L}\p{N}]+/gu) ?? []) yield `w:${word}`;
  if (isUnspaced(lower))
    for (const run of unspacedRuns(lower.slice(0, PAIRED_CHARACTERS)))
      if (isUnspaced(run)) for (const pair of keywordWords(run)) yield `p:${pair}`;
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
