import { Type, type Static } from 'typebox';
import { MEMORY_TYPES } from './memory-types.js';
import { JsonObject, Nullable, StringEnum, Timestamp } from './primitives.js';

export { MEMORY_TYPES, type MemoryType } from './memory-types.js';

export const MEMORY_STATUSES = ['active', 'archived', 'deleted'] as const;
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

export const MemoryTypeField = StringEnum(MEMORY_TYPES, { description: 'episodic, semantic, procedural or working' });

/**
 * A memory, declared once. The API's response schema is this schema; the record core and storage pass around is
 * its static type (`Memory`); the table type (`MemoriesTable` in storage/database.ts) is this record with the
 * stored forms of its JSON, boolean and timestamp columns (`TableOf`). A new field is added here, in a migration,
 * and in the row mapping of storage/sql/memories.ts.
 */
export const MemoryRecord = Type.Object(
  {
    id: Type.String(),
    workspace_id: Type.String(),
    tenant_id: Type.String(),
    context_id: Type.String(),
    user_id: Nullable(Type.String()),
    content: Type.String(),
    content_hash: Type.String({
      description: 'SHA-256 hex of the content with whitespace runs collapsed and ends trimmed',
    }),
    type: MemoryTypeField,
    subtype: Nullable(Type.String()),
    importance: Type.Number(),
    tags: Type.Array(Type.String()),
    metadata: JsonObject,
    abstract: Nullable(Type.String()),
    overview: Nullable(Type.String()),
    session_id: Nullable(Type.String()),
    access_count: Type.Integer(),
    last_accessed_at: Nullable(Timestamp),
    decay_factor: Type.Number(),
    source_scope: Nullable(Type.String()),
    source_memory_id: Nullable(
      Type.String({ description: 'the memory this one was derived from (atomic facts, insights)' }),
    ),
    pinned: Type.Boolean(),
    status: StringEnum(MEMORY_STATUSES),
    deleted_at: Nullable(Timestamp),
    archived_at: Nullable(Timestamp),
    observer_id: Nullable(Type.String()),
    subject_id: Nullable(Type.String()),
    occurred_at: Nullable(
      Type.String({
        format: 'date-time',
        description: 'when the remembered event happened, if known (from metadata); recency is measured from it',
      }),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Memory' },
);

export type Memory = Static<typeof MemoryRecord>;
