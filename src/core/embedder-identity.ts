import { ConfigError } from '../config.js';
import type { EmbeddingProvider } from '../providers/embedding/types.js';
import type { MetaStore, Storage } from '../storage/types.js';

const META_KEY = 'embedder';

export interface EmbedderIdentity {
  name: string;
  model: string;
  dimensions: number;
}

export const identityOf = (embedder: EmbeddingProvider): EmbedderIdentity => ({
  name: embedder.name,
  model: embedder.model,
  dimensions: embedder.dimensions,
});

const describe = (id: EmbedderIdentity): string => `${id.name}/${id.model} (${id.dimensions} dimensions)`;

/** The embedder the database's vectors were made with, as recorded (null: none yet); `memd doctor` reads the raw value. */
export const readEmbedderIdentity = (storage: { meta: Pick<MetaStore, 'get'> }): Promise<string | null> =>
  storage.meta.get(META_KEY);

/**
 * Why vectors made by the `recorded` embedder (the stored value) cannot be searched with `current`; null when they
 * can, or when nothing is recorded yet.
 */
export function embedderMismatch(recorded: string | null, current: EmbedderIdentity): string | null {
  if (recorded === null) return null;
  const previous = JSON.parse(recorded) as EmbedderIdentity;
  if (previous.name === current.name && previous.model === current.model && previous.dimensions === current.dimensions)
    return null;
  return `this database was embedded with ${describe(previous)} but MEMD_EMBEDDING_* now selects ${describe(current)}`;
}

/**
 * Vectors of different embedders live in different spaces; mixing them silently would wreck recall. The first start
 * records the embedder; later starts with another one are refused until `memd reembed` converts the data.
 */
export async function checkEmbedderIdentity(storage: Storage, embedder: EmbeddingProvider): Promise<void> {
  const recorded = await readEmbedderIdentity(storage);
  if (recorded === null) return recordEmbedderIdentity(storage, embedder);
  const mismatch = embedderMismatch(recorded, identityOf(embedder));
  if (mismatch)
    throw new ConfigError(
      `${mismatch}. Restore the previous embedder settings, or run \`npx memd reembed\` with the new settings to re-embed every memory.`,
    );
}

export async function recordEmbedderIdentity(storage: Storage, embedder: EmbeddingProvider): Promise<void> {
  await storage.meta.set(META_KEY, JSON.stringify(identityOf(embedder)));
}
