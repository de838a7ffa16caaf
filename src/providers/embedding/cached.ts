import { LRUCache } from 'lru-cache';
import { decorateEmbedder } from './decorate.js';
import type { EmbeddingProvider } from './types.js';

/**
 * Remembers the vectors of the last `maxEntries` distinct texts, keyed by exact text. Meant for
 * query embeddings on the recall path, where the same questions come back again and again.
 * Callers get their own copy of each vector, so mutating one cannot corrupt the cache.
 * `maxEntries` 0 disables caching and returns the provider itself.
 */
export function withEmbeddingCache(provider: EmbeddingProvider, maxEntries: number): EmbeddingProvider {
  if (maxEntries <= 0) return provider;
  const cache = new LRUCache<string, Float32Array>({ max: maxEntries });
  return decorateEmbedder(provider, {
    close: async () => {
      cache.clear();
      await provider.close();
    },
    async embed(texts) {
      // Collected here rather than re-read from the cache: a batch larger than the cache evicts its own entries.
      const vectors = new Map<string, Float32Array>();
      for (const text of texts) {
        const hit = cache.get(text);
        if (hit !== undefined) vectors.set(text, hit);
      }
      const misses = [...new Set(texts.filter((text) => !vectors.has(text)))];
      if (misses.length > 0) {
        const embedded = await provider.embed(misses);
        misses.forEach((text, i) => {
          vectors.set(text, embedded[i]!);
          cache.set(text, embedded[i]!);
        });
      }
      return texts.map((text) => vectors.get(text)!.slice());
    },
  });
}
