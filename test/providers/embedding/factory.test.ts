import { describe, expect, it } from 'vitest';
import type { EmbeddingConfig } from '../../../src/config.js';
import { createEmbeddingProvider } from '../../../src/providers/embedding/index.js';

const base: EmbeddingConfig = {
  provider: 'hash',
  model: undefined,
  baseUrl: undefined,
  apiKey: undefined,
  dimensions: undefined,
  workers: 1,
  workerIdleMs: undefined,
  timeoutMs: 1_000,
};

describe('createEmbeddingProvider', () => {
  it('builds the configured provider without loading anything', () => {
    expect(createEmbeddingProvider({ ...base, provider: 'local' })).toMatchObject({
      name: 'local',
      model: 'use-lite',
      dimensions: 512,
    });
    expect(createEmbeddingProvider({ ...base, provider: 'hash', dimensions: 64 })).toMatchObject({
      name: 'hash',
      dimensions: 64,
    });
    expect(createEmbeddingProvider({ ...base, provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1' })).toMatchObject({
      name: 'openai',
      model: 'text-embedding-3-small',
    });
    expect(
      createEmbeddingProvider({ ...base, provider: 'transformers', model: 'Xenova/all-MiniLM-L6-v2' }),
    ).toMatchObject({ name: 'transformers', model: 'Xenova/all-MiniLM-L6-v2' });
  });

  it('rejects an unusable configuration with provider_unavailable', () => {
    expect(() => createEmbeddingProvider({ ...base, provider: 'openai', baseUrl: 'not a url' })).toThrow(
      expect.objectContaining({ code: 'provider_unavailable' }),
    );
    expect(() => createEmbeddingProvider({ ...base, provider: 'local', model: 'something-else' })).toThrow(
      expect.objectContaining({ code: 'provider_unavailable' }),
    );
  });
});
