import { AppError, invalid, notFound } from '../../errors.js';
import type { Association, Direction, JsonObject, Memory, Storage } from '../../storage/types.js';
import { isoNow, type Clock } from '../clock.js';
import type { CoreEvents } from '../events.js';
import { newId } from '../ids.js';
import { relationshipFilter } from './relationship-filter.js';
import { normaliseRelationship } from './taxonomy.js';
import { traceMemory, type TraceResult } from './trace.js';
import { traverse, type TraverseOptions, type TraverseResult } from './traverse.js';

export const DEFAULT_STRENGTH = 0.5;

export interface AssociateInput {
  target_id: string;
  relationship: string;
  strength?: number | undefined;
  metadata?: JsonObject | undefined;
}

export interface AssociateResult {
  association: Association;
  /** False when the (source, target, relationship) edge existed and was updated instead. */
  created: boolean;
}

/**
 * Typed, weighted, directed links between two memories of one workspace. An edge is identified by
 * (source, target, relationship): stating it again updates its strength and metadata.
 */
export class AssociationService {
  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    private readonly events: CoreEvents,
  ) {}

  async associate(workspaceId: string, sourceId: string, input: AssociateInput): Promise<AssociateResult> {
    const relationship = normaliseRelationship(input.relationship);
    if (!relationship)
      throw invalid(
        '/relationship',
        `unknown relationship type '${input.relationship}'; GET /v1/workspaces/{workspace_id}/schema lists them`,
      );
    if (input.target_id === sourceId) throw invalid('/target_id', 'a memory cannot be associated with itself');
    const [source, target] = await Promise.all([
      this.storage.memories.get(workspaceId, sourceId),
      this.storage.memories.get(workspaceId, input.target_id),
    ]);
    if (!source) throw notFound('memory', sourceId);
    if (source.status === 'deleted')
      throw new AppError('conflict', `memory '${sourceId}' is deleted; it cannot gain associations`);
    // A target in another workspace is indistinguishable from a missing one: nothing leaks across the boundary.
    if (!target || target.status === 'deleted')
      throw invalid('/target_id', `no memory '${input.target_id}' in workspace '${workspaceId}'`);

    const proposed: Association = {
      id: newId('assoc'),
      workspace_id: workspaceId,
      source_id: sourceId,
      target_id: target.id,
      relationship,
      strength: input.strength ?? DEFAULT_STRENGTH,
      metadata: input.metadata ?? {},
      created_at: isoNow(this.clock),
    };
    const association = await this.storage.associations.upsert(proposed);
    await this.events.memoriesChanged(workspaceId);
    return { association, created: association.id === proposed.id };
  }

  /**
   * The edges of a memory in the given direction, optionally of some relationship types. Edges to soft-deleted
   * memories are left out: a deleted memory is gone for every reader but a direct GET.
   */
  async list(
    workspaceId: string,
    memoryId: string,
    options: { direction: Direction; relationships?: readonly string[] },
  ): Promise<Association[]> {
    await this.requireMemory(workspaceId, memoryId);
    const relationships = relationshipFilter({ types: options.relationships, typesPath: '/relationships' });
    const edges = await this.storage.associations.listForMemories(workspaceId, [memoryId], {
      direction: options.direction,
      ...(relationships && { relationships }),
    });
    const farIds = [...new Set(edges.map((e) => (e.source_id === memoryId ? e.target_id : e.source_id)))];
    const deleted = new Set(
      (await this.storage.memories.getMany(workspaceId, farIds)).filter((m) => m.status === 'deleted').map((m) => m.id),
    );
    return edges.filter((e) => !deleted.has(e.source_id === memoryId ? e.target_id : e.source_id));
  }

  /** Removes one edge of the memory; 404 when the association does not exist or does not touch the memory. */
  async remove(workspaceId: string, memoryId: string, associationId: string): Promise<void> {
    const edge = await this.storage.associations.get(workspaceId, associationId);
    if (!edge || (edge.source_id !== memoryId && edge.target_id !== memoryId))
      throw notFound('association', associationId);
    await this.storage.associations.delete(workspaceId, associationId);
    await this.events.memoriesChanged(workspaceId);
  }

  private async requireMemory(workspaceId: string, id: string): Promise<Memory> {
    const memory = await this.storage.memories.get(workspaceId, id);
    if (!memory) throw notFound('memory', id);
    return memory;
  }

  /** Paths from a memory through its associations (see traverse.ts for the bounds and the order). */
  traverse(workspaceId: string, startId: string, options: TraverseOptions): Promise<TraverseResult> {
    return traverse(this.storage, workspaceId, startId, options);
  }

  /** A memory's provenance: where it came from, its categories, its edges and the articles citing it. */
  trace(workspaceId: string, memoryId: string): Promise<TraceResult> {
    return traceMemory(this.storage, workspaceId, memoryId);
  }
}
