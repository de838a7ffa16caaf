import { methodsOver } from '../operations.js';
import type { Transport } from '../transport.js';

/** Memories: write, read, change, forget; recall and reflect; the graph around one memory. */
export function memoriesApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    /** Remember something (hash, embed, duplicate check, store): `{memory, action}`. */
    create: op('post', '/v1/memories'),
    /** A page of the workspace's memories, newest first, with `next_cursor`. */
    list: op('get', '/v1/memories'),
    get: op('get', '/v1/memories/{memory_id}'),
    /** Change the fields given; the others stay. */
    update: op('put', '/v1/memories/{memory_id}'),
    /** Soft delete, or for good with `{hard: true}`. */
    delete: op('delete', '/v1/memories/{memory_id}'),
    /** Lower the memory's importance by `decay_rate` (pinned memories are exempt). */
    decay: op('post', '/v1/memories/{memory_id}/decay'),
    /** Create, update and delete many memories; each operation succeeds or fails on its own. */
    batch: op('post', '/v1/memories/batch'),
    /** Hybrid retrieval by meaning and words, with graph expansion and boosts. */
    recall: op('post', '/v1/memories/recall', { idempotent: true }),
    /** An answer from memories (synthesised by the language model, extractive without one). */
    reflect: op('post', '/v1/memories/reflect', { idempotent: true }),
    /** Link this memory to another (the same as `associations.create`). */
    associate: op('post', '/v1/memories/{memory_id}/associate'),
    /** Paths from the memory through its associations. */
    traverse: op('post', '/v1/memories/{memory_id}/traverse', { idempotent: true }),
    /** Provenance: where the memory came from, its associations, the articles citing it. */
    trace: op('get', '/v1/memories/{memory_id}/trace'),
  };
}

/** The edges of one memory. */
export function associationsApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    /** Link a memory (the source) to another; an existing edge of that relationship is updated (status 200, not 201). */
    create: op('post', '/v1/memories/{memory_id}/associations'),
    list: op('get', '/v1/memories/{memory_id}/associations'),
    /** `(memoryId, associationId)`. */
    delete: op('delete', '/v1/memories/{memory_id}/associations/{association_id}'),
  };
}

/** Insights about an entity (a person, a project) derived from the memories about it. */
export function entitiesApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    derive: op('post', '/v1/entities/{entity_id}/derive'),
    card: op('get', '/v1/entities/{entity_id}/card'),
    insights: op('get', '/v1/entities/{entity_id}/insights'),
  };
}

/** Contradictions between memories of a workspace. */
export function contradictionsApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    /** `(workspaceId, query?)`: the unresolved ones, newest first. */
    list: op('get', '/v1/workspaces/{workspace_id}/contradictions'),
    scan: op('post', '/v1/workspaces/{workspace_id}/contradictions/scan'),
    /** keep_a, keep_b, keep_both, or merge (with merged_content). */
    resolve: op('post', '/v1/contradictions/{contradiction_id}/resolve'),
  };
}
