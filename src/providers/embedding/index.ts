import type { EmbeddingConfig } from '../../config.js';
import { HashEmbeddingProvider } from './hash.js';
import { LocalEmbeddingProvider } from './local.js';
import { OpenAiEmbeddingProvider } from './openai.js';
import { TransformersEmbeddingProvider } from './transformers.js';
import type { EmbeddingProvider } from './types.js';

export type { EmbeddingProvider } from './types.js';
export { withEmbeddingCache } from './cached.js';

/** The provider MEMD_EMBEDDING_PROVIDER names. Cheap: nothing loads or connects before `init()`. */
export function createEmbeddingProvider(config: EmbeddingConfig): EmbeddingProvider {
  switch (config.provider) {
    case 'local':
      return new LocalEmbeddingProvider(config);
    case 'openai':
      return new OpenAiEmbeddingProvider(config);
    case 'transformers':
      return new TransformersEmbeddingProvider(config);
    case 'hash':
      return new HashEmbeddingProvider(config.dimensions);
  }
}
