import { conflict, invalid, notFound } from '../../errors.js';
import type { Contradiction, ContradictionResolution, Memory, Storage } from '../../storage/types.js';
import { isoNow, type Clock } from '../clock.js';
import type { CoreEvents } from '../events.js';
import { newId } from '../ids.js';
import { dedupeTags } from '../memories/records.js';
import type { MemoryService } from '../memories/service.js';
import type { WorkspaceService } from '../workspaces/service.js';
import type { ContradictionDetector } from './detector.js';

interface ContradictionDeps {
  storage: Storage;
  memories: MemoryService;
  workspaces: WorkspaceService;
  detector: ContradictionDetector;
  clock: Clock;
  events: CoreEvents;
}

export const DEFAULT_SCAN_BATCH = 100;

/** Listing, scanning and resolving contradictions between the memories of a workspace. */
export class ContradictionService {
  constructor(private readonly deps: ContradictionDeps) {}

  async listUnresolved(workspaceId: string, limit: number): Promise<Contradiction[]> {
    await this.deps.workspaces.get(workspaceId);
    return this.deps.storage.contradictions.listUnresolved(workspaceId, limit);
  }

  /**
   * Checks the `batchSize` most recent stated memories against their neighbours, and against each other by
   * attribute; returns the contradictions newly found (pairs already recorded, resolved or not, are not again).
   */
  async scan(workspaceId: string, batchSize = DEFAULT_SCAN_BATCH): Promise<Contradiction[]> {
    const { storage, workspaces, detector } = this.deps;
    await workspaces.get(workspaceId);
    const batch = (await storage.memories.list(workspaceId, { derived: false }, { limit: batchSize })).items;
    const embeddings = await storage.memories.getEmbeddings(
      workspaceId,
      batch.map((m) => m.id),
    );
    const found: Contradiction[] = [];
    for (const memory of batch) {
      const embedding = embeddings.get(memory.id);
      if (embedding) found.push(...(await detector.checkNeighbours(memory, embedding, 'all')));
    }
    found.push(...(await detector.checkAttributes(batch, embeddings)));
    // Each new pair is a `contradicts` link: a typed link, which recall counts as a backlink.
    if (found.length > 0) await this.deps.events.memoriesChanged(workspaceId);
    return found;
  }

  /**
   * keep_a soft-deletes b, keep_b soft-deletes a, keep_both changes no memory, merge stores `mergedContent` as a
   * new memory that supersedes both (which are soft-deleted). Resolving twice is a conflict. The resolution is
   * claimed first, so two concurrent calls cannot both act; if acting fails, the claim is released.
   */
  async resolve(
    workspaceId: string,
    id: string,
    resolution: ContradictionResolution,
    mergedContent: string | undefined,
  ): Promise<Contradiction> {
    const { storage, clock } = this.deps;
    const existing = await storage.contradictions.get(workspaceId, id);
    if (!existing) throw notFound('contradiction', id);
    if (existing.resolved_at !== null)
      throw conflict(`contradiction '${id}' was already resolved (${existing.resolution}) at ${existing.resolved_at}`);
    const merged = mergedContent?.trim();
    if (resolution === 'merge' && !merged) throw invalid('/merged_content', 'is required when resolution is merge');
    const claimed = await storage.contradictions.claimResolution(workspaceId, id, resolution, isoNow(clock));
    if (!claimed) throw conflict(`contradiction '${id}' was already resolved`);
    try {
      return await this.apply(claimed, merged);
    } catch (error) {
      await storage.contradictions.update(workspaceId, id, { resolution: null, resolved_at: null });
      throw error;
    }
  }

  private async apply(contradiction: Contradiction, mergedContent: string | undefined): Promise<Contradiction> {
    const { memories } = this.deps;
    const { workspace_id: workspaceId, memory_a_id: a, memory_b_id: b } = contradiction;
    switch (contradiction.resolution) {
      case 'keep_a':
        await memories.delete(workspaceId, b, false);
        return contradiction;
      case 'keep_b':
        await memories.delete(workspaceId, a, false);
        return contradiction;
      case 'merge':
        return this.merge(contradiction, mergedContent!);
      default:
        // No memory changes, but recall places an unresolved pair's later memory first (recall/contradicted.ts):
        // its cached answers no longer hold.
        await this.deps.events.memoriesChanged(workspaceId);
        return contradiction;
    }
  }

  private async merge(contradiction: Contradiction, content: string): Promise<Contradiction> {
    const { storage, memories, workspaces, clock } = this.deps;
    const workspaceId = contradiction.workspace_id;
    const originals = await storage.memories.getMany(workspaceId, [
      contradiction.memory_a_id,
      contradiction.memory_b_id,
    ]);
    const scope = await workspaces.writeScope(workspaceId);
    // Similarity dedup would fold the merged text back into one of the two it replaces.
    const { memory } = await memories.create(
      { ...scope, dedup: { ...scope.dedup, enabled: false } },
      {
        content,
        importance: Math.max(...originals.map((m) => m.importance)),
        tags: dedupeTags(originals.flatMap((m) => m.tags)),
        metadata: { merged_from: originals.map((m) => m.id), contradiction_id: contradiction.id },
        ...sharedAttribution(originals),
      },
    );
    const now = isoNow(clock);
    for (const original of originals) {
      if (original.id === memory.id) continue;
      await memories.delete(workspaceId, original.id, false);
      await storage.associations.upsert({
        id: newId('assoc'),
        workspace_id: workspaceId,
        source_id: memory.id,
        target_id: original.id,
        relationship: 'supersedes',
        strength: 1,
        metadata: { contradiction_id: contradiction.id },
        created_at: now,
      });
    }
    await this.deps.events.memoriesChanged(workspaceId);
    const resolved = await storage.contradictions.update(workspaceId, contradiction.id, {
      merged_memory_id: memory.id,
    });
    // Deleted with its workspace meanwhile.
    if (!resolved) throw notFound('contradiction', contradiction.id);
    return resolved;
  }
}

/** Context, subject and observer the two memories share (a merged statement is about what both were about). */
function sharedAttribution(originals: readonly Memory[]) {
  const shared = (pick: (m: Memory) => string | null) => {
    const values = new Set(originals.map(pick));
    return values.size === 1 ? ([...values][0] ?? undefined) : undefined;
  };
  return {
    context_id: shared((m) => m.context_id),
    subject_id: shared((m) => m.subject_id),
    observer_id: shared((m) => m.observer_id),
    user_id: shared((m) => m.user_id),
  };
}
