import { ConfigError } from '../config.js';
import { notFound } from '../errors.js';
import type { EmbeddingProvider } from '../providers/embedding/types.js';
import type { MemoryStatus, PassageKey, Storage } from '../storage/types.js';
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
  /**
   * Only this workspace's memories (page passages are left as they are); refused when the configured embedder is not
   * the database's, since then every vector must change.
   */
  workspaceId?: string;
  /** After each page of work: what is being embedded, how many so far, of how many (null: not counted beforehand). */
  onProgress?(stage: 'memories' | 'page passages', done: number, total: number | null): void;
}

export interface ReembedReport {
  memories: number;
  passages: number;
}

async function memoryCount(storage: Storage, workspaceIds: readonly string[]): Promise<number> {
  const counts = await Promise.all(workspaceIds.map((id) => storage.memories.count(id, { statuses: EVERY_STATUS })));
  return counts.reduce((sum, count) => sum + count, 0);
}

/** The workspaces to re-embed, after checking that re-embedding only `workspaceId` keeps one embedder in the database. */
async function workspacesToReembed(
  storage: Storage,
  embedder: EmbeddingProvider,
  workspaceId: string | undefined,
): Promise<string[]> {
  if (workspaceId === undefined) return (await storage.workspaces.list()).map((workspace) => workspace.id);
  const mismatch = embedderMismatch(await readEmbedderIdentity(storage), identityOf(embedder));
  if (mismatch) throw new ConfigError(`${mismatch}: every workspace must be re-embedded (leave out the workspace)`);
  if (!(await storage.workspaces.get(workspaceId))) throw notFound('workspace', workspaceId);
  return [workspaceId];
}

async function reembedWorkspaceMemories(
  storage: Storage,
  embedder: EmbeddingProvider,
  workspaceId: string,
  onPage: (count: number) => void,
): Promise<void> {
  for (let afterSeq = 0; ; ) {
    const page = await storage.memories.scan(workspaceId, afterSeq, PAGE);
    if (page.length === 0) return;
    const vectors = await embedder.embed(page.map(({ memory }) => normaliseContent(memory.content)));
    await storage.transaction((tx) =>
      tx.memories.setEmbeddings(page.map(({ memory }, i) => ({ workspaceId, id: memory.id, embedding: vectors[i]! }))),
    );
    afterSeq = page[page.length - 1]!.seq;
    onPage(page.length);
  }
}

/** The passages document pages are searched by (every workspace's). */
async function reembedPassages(
  storage: Storage,
  embedder: EmbeddingProvider,
  onPage: (count: number) => void,
): Promise<void> {
  for (let after: PassageKey | null = null; ; ) {
    const batch = await storage.documents.scanPassages(after, PAGE);
    if (batch.length === 0) return;
    const vectors = await embedder.embed(batch.map((passage) => normaliseContent(passage.text)));
    await storage.transaction((tx) =>
      tx.documents.setPassageEmbeddings(batch.map((passage, i) => ({ ...passage, embedding: vectors[i]! }))),
    );
    after = batch[batch.length - 1]!;
    onPage(batch.length);
  }
}

/**
 * Embeds every memory (of every status) and every page passage again with `embedder`, a page at a time, and records
 * it as the database's embedder; with `workspaceId`, that workspace's memories only. Offline work: on SQLite the
 * caller holds the data directory, so no server runs meanwhile.
 */
export async function reembed(
  storage: Storage,
  embedder: EmbeddingProvider,
  indexes: VectorIndexes,
  options: ReembedOptions = {},
): Promise<ReembedReport> {
  const workspaceIds = await workspacesToReembed(storage, embedder, options.workspaceId);
  const total = await memoryCount(storage, workspaceIds);
  const report: ReembedReport = { memories: 0, passages: 0 };
  options.onProgress?.('memories', 0, total);
  await indexes.drop();
  for (const workspaceId of workspaceIds) {
    await reembedWorkspaceMemories(storage, embedder, workspaceId, (count) => {
      report.memories += count;
      options.onProgress?.('memories', report.memories, Math.max(total, report.memories));
    });
  }
  if (options.workspaceId === undefined) {
    await reembedPassages(storage, embedder, (count) => {
      report.passages += count;
      options.onProgress?.('page passages', report.passages, null);
    });
  }
  await indexes.rebuild();
  await recordEmbedderIdentity(storage, embedder);
  return report;
}
