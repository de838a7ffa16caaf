import { Type, type Static } from 'typebox';
import type { ExportOptions } from '../../core/portability/export.js';
import { Identifier, JsonObject, MAX_POSITION, Nullable, Offset, Score01, StringEnum, Timestamp } from './common.js';
import { CONTENT_MAX_CHARS, Memory, MemoryTypeField } from './memory.js';

const optionalNullable = <T extends Parameters<typeof Nullable>[0]>(schema: T) => Type.Optional(Nullable(schema));

/** The `data` of a memory line: an exported memory record; only `content` is required to import one. */
export const ImportedMemory = Type.Object(
  {
    content: Type.String({ minLength: 1, maxLength: CONTENT_MAX_CHARS, pattern: '\\S' }),
    id: Type.Optional(Type.String({ minLength: 1 })),
    type: Type.Optional(MemoryTypeField),
    subtype: optionalNullable(Type.String({ maxLength: 64 })),
    importance: Type.Optional(Score01('importance')),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 256 }))),
    metadata: Type.Optional(JsonObject),
    abstract: optionalNullable(Type.String()),
    overview: optionalNullable(Type.String()),
    context_id: Type.Optional(Identifier('context')),
    user_id: optionalNullable(Type.String()),
    session_id: optionalNullable(Type.String()),
    observer_id: optionalNullable(Type.String()),
    subject_id: optionalNullable(Type.String()),
    pinned: Type.Optional(Type.Boolean()),
    status: Type.Optional(StringEnum(['active', 'archived', 'deleted'] as const)),
    access_count: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_POSITION })),
    last_accessed_at: optionalNullable(Timestamp),
    decay_factor: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    source_scope: optionalNullable(Type.String()),
    source_memory_id: optionalNullable(Type.String()),
    deleted_at: optionalNullable(Timestamp),
    archived_at: optionalNullable(Timestamp),
    created_at: Type.Optional(Timestamp),
    updated_at: Type.Optional(Timestamp),
    embedding: Type.Optional(Type.Array(Type.Number())),
  },
  // Exports from other versions may carry fields we do not know; they are ignored, not refused.
  { additionalProperties: true },
);
export type ImportedMemory = Static<typeof ImportedMemory>;

export const ImportedAssociation = Type.Object(
  {
    source_id: Type.String({ minLength: 1 }),
    target_id: Type.String({ minLength: 1 }),
    relationship_type: Type.Optional(Type.String({ minLength: 1 })),
    relationship: Type.Optional(Type.String({ minLength: 1 })),
    strength: Type.Optional(Score01('strength')),
    metadata: Type.Optional(JsonObject),
    created_at: Type.Optional(Timestamp),
  },
  { additionalProperties: true },
);
export type ImportedAssociation = Static<typeof ImportedAssociation>;

export const ExportLine = Type.Union([
  Type.Object({
    type: Type.Literal('header'),
    version: Type.String(),
    workspace_id: Type.String(),
    exported_at: Timestamp,
    total_memories: Type.Integer(),
    total_associations: Type.Integer(),
    offset: Type.Integer(),
    limit: Type.Integer(),
  }),
  Type.Object({ type: Type.Literal('memory'), index: Type.Integer(), data: Memory }),
  Type.Object({ type: Type.Literal('association'), data: ImportedAssociation }),
  Type.Object({
    type: Type.Literal('footer'),
    memories_exported: Type.Integer(),
    associations_exported: Type.Integer(),
  }),
]);

export const ExportQuery = Type.Object(
  {
    offset: Offset,
    limit: Type.Integer({ minimum: 0, maximum: MAX_POSITION, default: 0, description: '0 = all' }),
    include_associations: Type.Boolean({ default: true }),
    include_embeddings: Type.Boolean({
      default: false,
      description: 'add each memory’s vector (lets an import into the same embedder skip re-embedding)',
    }),
  },
  { additionalProperties: false },
);

export type ExportQuery = Static<typeof ExportQuery>;

/** Export options as the API states them, in core's terms. */
export const toExportOptions = (q: ExportQuery): ExportOptions => ({
  offset: q.offset,
  limit: q.limit,
  includeAssociations: q.include_associations,
  includeEmbeddings: q.include_embeddings,
});

export const ImportJsonBody = Type.Object(
  {
    data: Type.Object(
      {
        version: Type.Optional(Type.String()),
        workspace_id: Type.Optional(Type.String()),
        exported_at: Type.Optional(Type.String()),
        memories: Type.Array(Type.Unknown({ description: 'memory records (the `data` of memory lines)' }), {
          default: [],
        }),
        associations: Type.Array(Type.Unknown({ description: 'association records' }), { default: [] }),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: false },
);

export const ImportReport = Type.Object({
  imported: Type.Integer(),
  skipped_duplicates: Type.Integer(),
  associations_imported: Type.Integer(),
  errors: Type.Integer(),
  details: Type.Array(Type.String()),
});
