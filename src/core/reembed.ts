import { ConfigError } from '../config.js';
import { notFound } from '../errors.js';
import type { EmbeddingProvider } from '../providers/embedding/types.js';
import type { MemoryStatus, Storage } from '../storage/types.js';
import { embedderMismatch, identityOf, readEmbedderIdentity, recordEmbedderIdentity } from './embedder-identity.js';
import { normaliseContent } from './text/index.js';

const PAGE = 256;
const EVERY_STATUS: MemoryStatus[] = ['active', 'archived', 'deleted'];

/** The search indexes over the vectors: typed by dimension, so they go before re-embedding and come back after. */
export interface VectorIndexes {
  drop(): Promise<void>;
  rebuild(): Promise<void>;
}

export interface ReembedOptions {
  /** Only this workspace; refused when the configured embedder is not the database's (every vector must change). */
  workspaceId?: string;
  onProgress?(done: number, total: number): void;
}

async function memoryCount(storage: Storage, workspaceIds: readonly string[]): Promise<number> {
  const counts = await Promise.all(workspaceIds.map((id) => storage.memories.count(id, { statuses: EVERY_STATUS })));
  return counts.reduce((sum, count) => sum + count, 0);
}

/** The workspaces to re-embed, after checking that re-embedding only `workspaceId` keeps one embedder in the database. */
async function workspacesToReembed(storage: Storage, embedder: EmbeddingProvider, workspaceId: string | undefined): Promise<string[]> {
  if (workspaceId === undefined) return (await storage.workspaces.list()).map((workspace) => workspace.id);
  const mismatch = embedderMismatch(await readEmbedderIdentity(storage), identityOf(embedder));
  if (mismatch) throw new ConfigError(`${mismatch}: every workspace must be re-embedded (leave out the workspace)`);
  if (!(await storage.workspaces.get(workspaceId))) throw notFound('workspace', workspaceId);
  return [workspaceId];
}

/**
 * Embeds every memory (of every status) again with `embedder`, a page at a time, and records it as the database's
 * embedder. Offline work: on SQLite the caller holds the data directory, so no server runs meanwhile.
 */
export async function reembedMemories(storage: Storage, embedder: EmbeddingProvider, indexes: VectorIndexes, options: ReembedOptions = {}): Promise<{ memories: number }> {
  const workspaceIds = await workspacesToReembed(storage, embedder, options.workspaceId);
  const total = await memoryCount(storage, workspaceIds);
  options.onProgress?.(0, total);
  await indexes.drop();
  let done = 0;
  for (const workspaceId of workspaceIds) {
    for (let afterSeq = 0; ; ) {
      const page = await storage.memories.scan(workspaceId, afterSeq, PAGE);
      if (page.length === 0) break;
      const vectors = await embedder.embed(page.map(({ memory }) => normaliseContent(memory.content)));
      await storage.transaction((tx) => tx.memories.setEmbeddings(page.map(({ memory }, i) => ({ workspaceId, id: memory.id, embedding: vectors[i]! }))));
      afterSeq = page[page.length - 1]!.seq;
      done += page.length;
      options.onProgress?.(done, Math.max(total, done));
    }
  }
  await indexes.rebuild();
  await recordEmbedderIdentity(storage, embedder);
  return { memories: done };
}
