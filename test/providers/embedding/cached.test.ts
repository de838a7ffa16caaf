import { describe, expect, it } from 'vitest';
import { withEmbeddingCache } from '../../../src/providers/embedding/cached.js';
import { HashEmbeddingProvider } from '../../../src/providers/embedding/hash.js';
import type { EmbeddingProvider } from '../../../src/providers/embedding/types.js';

/** The hash provider, remembering which texts actually reached it. */
function recordingProvider(): { provider: EmbeddingProvider; embedded: string[] } {
  const inner = new HashEmbeddingProvider(32);
  const embedded: string[] = [];
  const provider: EmbeddingProvider = {
    name: inner.name,
    model: inner.model,
    dimensions: inner.dimensions,
    init: () => inner.init(),
    close: () => inner.close(),
    embed: (texts) => {
      embedded.push(...texts);
      return inner.embed(texts);
    },
  };
  return { provider, embedded };
}

describe('withEmbeddingCache', () => {
  it('embeds each distinct text once and serves repeats from memory with identical vectors', async () => {
    const { provider, embedded } = recordingProvider();
    const cached = withEmbeddingCache(provider, 100);
    const first = await cached.embed(['what does Alice drink?', 'where is Bob?', 'what does Alice drink?']);
    const second = await cached.embed(['where is Bob?', 'what does Alice drink?']);
    expect(embedded).toEqual(['what does Alice drink?', 'where is Bob?']);
    expect(Array.from(second[0]!)).toEqual(Array.from(first[1]!));
    expect(Array.from(second[1]!)).toEqual(Array.from(first[0]!));
    expect(Array.from(first[2]!)).toEqual(Array.from(first[0]!));
  });

  it('hands out copies, so a caller mutating its vector cannot corrupt later answers', async () => {
    const cached = withEmbeddingCache(new HashEmbeddingProvider(32), 10);
    const [first] = await cached.embed(['query']);
    const original = Array.from(first!);
    first!.fill(0);
    expect(Array.from((await cached.embed(['query']))[0]!)).toEqual(original);
  });

  it('evicts the least recently used text beyond maxEntries', async () => {
    const { provider, embedded } = recordingProvider();
    const cached = withEmbeddingCache(provider, 2);
    await cached.embed(['a']);
    await cached.embed(['b']);
    await cached.embed(['a']); // a is now the most recent
    await cached.embed(['c']); // evicts b
    await cached.embed(['a', 'b']);
    expect(embedded).toEqual(['a', 'b', 'c', 'b']);
  });

  it('answers a batch larger than the cache completely and in order', async () => {
    const inner = new HashEmbeddingProvider(32);
    const texts = Array.from({ length: 10 }, (_, i) => `text ${i}`);
    const vectors = await withEmbeddingCache(inner, 3).embed(texts);
    expect(vectors.map((vector) => Array.from(vector))).toEqual(
      (await inner.embed(texts)).map((vector) => Array.from(vector)),
    );
  });

  it('keeps the identity of the wrapped provider, and is a no-op with maxEntries 0', () => {
    const inner = new HashEmbeddingProvider(32);
    const cached = withEmbeddingCache(inner, 5);
    expect([cached.name, cached.model, cached.dimensions]).toEqual(['hash', 'feature-hash-v1', 32]);
    expect(withEmbeddingCache(inner, 0)).toBe(inner);
  });
});
