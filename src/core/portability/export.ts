import type { Association, Memory, Storage } from '../../storage/types.js';

export const EXPORT_FORMAT_VERSION = '1.0';

const PAGE = 500;

export interface ExportOptions {
  offset: number;
  /** 0 = every memory after `offset`. */
  limit: number;
  includeAssociations: boolean;
  includeEmbeddings: boolean;
}

export type ExportLine =
  | {
      type: 'header';
      version: string;
      workspace_id: string;
      exported_at: string;
      total_memories: number;
      total_associations: number;
      offset: number;
      limit: number;
    }
  | { type: 'memory'; index: number; data: Memory & { embedding?: number[] } }
  | {
      type: 'association';
      data: Pick<Association, 'source_id' | 'target_id' | 'strength' | 'metadata'> & {
        id: string;
        relationship_type: string;
        created_at: string;
      };
    }
  | { type: 'footer'; memories_exported: number; associations_exported: number };

const EVERY_STATUS = { statuses: ['active', 'archived', 'deleted'] as Memory['status'][] };

/**
 * A workspace as NDJSON lines: header, memories (every status, oldest first), associations, footer. Pages through
 * the database, so memory use does not grow with the workspace; a partial export (offset/limit) carries the edges
 * that leave its memories.
 */
export async function* exportWorkspace(
  storage: Storage,
  workspaceId: string,
  options: ExportOptions,
  exportedAt: string,
): AsyncGenerator<ExportLine> {
  const [totalMemories, totalAssociations] = await Promise.all([
    storage.memories.count(workspaceId, EVERY_STATUS),
    storage.associations.count(workspaceId),
  ]);
  yield {
    type: 'header',
    version: EXPORT_FORMAT_VERSION,
    workspace_id: workspaceId,
    exported_at: exportedAt,
    total_memories: totalMemories,
    total_associations: totalAssociations,
    offset: options.offset,
    limit: options.limit,
  };

  const partial = options.offset > 0 || options.limit > 0;
  const exportedIds: string[] = [];
  let skipped = 0;
  let exported = 0;
  let afterSeq = 0;
  scan: for (;;) {
    const page = await storage.memories.scan(workspaceId, afterSeq, PAGE, EVERY_STATUS);
    if (page.length === 0) break;
    for (const { memory, embedding } of page) {
      if (skipped < options.offset) {
        skipped++;
        continue;
      }
      if (options.limit > 0 && exported >= options.limit) break scan;
      if (partial) exportedIds.push(memory.id);
      const data = options.includeEmbeddings && embedding ? { ...memory, embedding: Array.from(embedding) } : memory;
      yield { type: 'memory', index: options.offset + exported, data };
      exported++;
    }
    afterSeq = page[page.length - 1]!.seq;
  }

  let edges = 0;
  if (options.includeAssociations) {
    const lines = partial ? edgesLeaving(storage, workspaceId, exportedIds) : everyEdge(storage, workspaceId);
    for await (const edge of lines) {
      yield {
        type: 'association',
        data: {
          id: edge.id,
          source_id: edge.source_id,
          target_id: edge.target_id,
          relationship_type: edge.relationship,
          strength: edge.strength,
          metadata: edge.metadata,
          created_at: edge.created_at,
        },
      };
      edges++;
    }
  }
  yield { type: 'footer', memories_exported: exported, associations_exported: edges };
}

async function* everyEdge(storage: Storage, workspaceId: string): AsyncGenerator<Association> {
  let afterId: string | null = null;
  for (;;) {
    const page = await storage.associations.scan(workspaceId, afterId, PAGE);
    if (page.length === 0) return;
    yield* page;
    afterId = page[page.length - 1]!.id;
  }
}

async function* edgesLeaving(
  storage: Storage,
  workspaceId: string,
  memoryIds: readonly string[],
): AsyncGenerator<Association> {
  for (let start = 0; start < memoryIds.length; start += PAGE) {
    yield* await storage.associations.listForMemories(workspaceId, memoryIds.slice(start, start + PAGE), {
      direction: 'outgoing',
    });
  }
}
