import { describe, expect, it } from 'vitest';
import { HashEmbeddingProvider } from '../../../src/providers/embedding/hash.js';
import { dot, expectUnitVectors, mixedLengthTexts } from './helpers.js';

describe('hash embedding provider', () => {
  const provider = new HashEmbeddingProvider();

  it('identifies its vector space and defaults to 256 dimensions', () => {
    expect(provider.name).toBe('hash');
    expect(provider.model).toBe('feature-hash-v1');
    expect(provider.dimensions).toBe(256);
    expect(new HashEmbeddingProvider(64).dimensions).toBe(64);
  });

  it('returns unit vectors of the configured width, also for blank, one-character and non-Latin text', async () => {
    const texts = ['hello world', '', '   ', 'a', '🙂', '東京の天気', 'x'.repeat(10_000)];
    expectUnitVectors(await provider.embed(texts), 256);
    expectUnitVectors(await new HashEmbeddingProvider(8).embed(texts), 8);
  });

  it('gives blank text the documented fixed vector e₀', async () => {
    const [empty, spaces] = await provider.embed(['', ' \n\t']);
    expect(empty![0]).toBe(1);
    expect(Array.from(spaces!)).toEqual(Array.from(empty!));
  });

  it('is deterministic across calls and instances', async () => {
    const [first] = await provider.embed(['The quick brown fox']);
    const [second] = await new HashEmbeddingProvider().embed(['The quick brown fox']);
    expect(Array.from(second!)).toEqual(Array.from(first!));
  });

  it('ignores case but not content', async () => {
    const [lower, upper, other] = await provider.embed(['the cat sat', 'THE CAT SAT', 'the dog ran']);
    expect(dot(lower!, upper!)).toBeCloseTo(1, 6);
    expect(dot(lower!, other!)).toBeLessThan(0.9);
  });

  it('puts texts that share words closer than unrelated texts', async () => {
    const [query, related, unrelated] = await provider.embed([
      'user prefers green tea in the morning',
      'in the morning the user drinks green tea',
      'quarterly revenue grew four percent',
    ]);
    expect(dot(query!, related!)).toBeGreaterThan(dot(query!, unrelated!) + 0.3);
  });

  it('keeps input order and handles an empty batch', async () => {
    const texts = mixedLengthTexts(40);
    const batch = await provider.embed(texts);
    for (const [i, text] of texts.entries()) {
      const [alone] = await provider.embed([text]);
      expect(Array.from(batch[i]!)).toEqual(Array.from(alone!));
    }
    expect(await provider.embed([])).toEqual([]);
  });
});
