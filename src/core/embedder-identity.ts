import { ConfigError } from '../config.js';
import type { EmbeddingProvider } from '../providers/embedding/types.js';
import type { Storage } from '../storage/types.js';

const META_KEY = 'embedder';

export interface EmbedderIdentity {
  name: string;
  model: string;
  dimensions: number;
}

export const identityOf = (embedder: EmbeddingProvider): EmbedderIdentity => ({ name: embedder.name, model: embedder.model, dimensions: embedder.dimensions });

const describe = (id: EmbedderIdentity): string => `${id.name}/${id.model} (${id.dimensions} dimensions)`;

/**
 * Vectors of different embedders live in different spaces; mixing them silently would wreck recall. The first start
 * records the embedder; later starts with another one are refused until `memd reembed` converts the data.
 */
export async function checkEmbedderIdentity(storage: Storage, embedder: EmbeddingProvider): Promise<void> {
  const stored = await storage.meta.get(META_KEY);
  const current = identityOf(embedder);
  if (stored === null) {
    await storage.meta.set(META_KEY, JSON.stringify(current));
    return;
  }
  const previous = JSON.parse(stored) as EmbedderIdentity;
  if (previous.name === current.name && previous.model === current.model && previous.dimensions === current.dimensions) return;
  throw new ConfigError(
    `this database was embedded with ${describe(previous)} but MEMD_EMBEDDING_* now selects ${describe(current)}. ` +
      'Restore the previous embedder settings, or run `npx memd reembed` (after `npm run build`) with the new settings to re-embed every memory.',
  );
}

export async function recordEmbedderIdentity(storage: Storage, embedder: EmbeddingProvider): Promise<void> {
  await storage.meta.set(META_KEY, JSON.stringify(identityOf(embedder)));
}
