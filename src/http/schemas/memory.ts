import { Type, type Static } from 'typebox';
import { MEMORY_SUBTYPES } from '../../core/memories/vocabulary.js';
import { DEFAULT_DECAY_RATE } from '../../core/memories/service.js';
import { MemoryRecord, MemoryTypeField } from '../../schemas/memory.js';
import {
  Identifier,
  JsonObject,
  NonBlank,
  Nullable,
  Score01,
  StringEnum,
  Timestamp,
  WorkspaceIdField,
} from './common.js';

export { MemoryTypeField };

const Subtype = Type.String({
  minLength: 1,
  maxLength: 64,
  description: `one of ${MEMORY_SUBTYPES.join(', ')}, or your own`,
});
export const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 100 });
export const CONTENT_MAX_CHARS = 200_000;

/** A memory as every response shows it: the one declaration in src/schemas/memory.ts. */
export const Memory = MemoryRecord;

/** The fields of a memory a caller provides, shared by POST /v1/memories and batch `create` items. */
export const memoryDraftFields = {
  content: NonBlank({ maxLength: CONTENT_MAX_CHARS, description: 'what to remember' }),
  type: Type.Optional(MemoryTypeField),
  subtype: Type.Optional(Nullable(Subtype)),
  importance: Type.Optional(Score01('0 forgotten … 1 critical', { default: 0.5 })),
  tags: Type.Optional(Tags),
  metadata: Type.Optional(JsonObject),
  associations: Type.Optional(
    Type.Array(Type.String({ minLength: 1 }), {
      maxItems: 100,
      description: 'ids of memories to link to (related_to)',
    }),
  ),
  context_id: Type.Optional(Identifier('context; default `_default` or the session’s')),
  observer_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  subject_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  pinned: Type.Optional(Type.Boolean()),
};

export const CreateMemoryBody = Type.Object(
  { ...memoryDraftFields, workspace_id: WorkspaceIdField },
  { additionalProperties: false },
);
export type CreateMemoryBody = Static<typeof CreateMemoryBody>;

export const memoryUpdateFields = {
  content: Type.Optional(NonBlank({ maxLength: CONTENT_MAX_CHARS })),
  type: Type.Optional(MemoryTypeField),
  subtype: Type.Optional(Nullable(Subtype)),
  importance: Type.Optional(Score01('new importance')),
  tags: Type.Optional(Tags),
  metadata: Type.Optional(JsonObject),
  pinned: Type.Optional(Type.Boolean()),
  status: Type.Optional(
    StringEnum(['active', 'archived'] as const, {
      description: 'archive (hidden from recall unless include_archived) or restore',
    }),
  ),
};

export const UpdateMemoryBody = Type.Object(
  { ...memoryUpdateFields, workspace_id: WorkspaceIdField },
  { additionalProperties: false },
);
export type UpdateMemoryBody = Static<typeof UpdateMemoryBody>;

export const MemoryEnvelope = Type.Object({ memory: Memory });

export const WriteMemoryResponse = Type.Object({
  memory: Memory,
  action: StringEnum(['created', 'skipped', 'updated', 'merged'] as const, {
    description:
      'what the duplicate check decided: a new memory, an exact duplicate (the same text of the same context, user, observer and subject) returned as is, or an existing memory of the same updated/merged',
  }),
});

export const DecayBody = Type.Object(
  {
    decay_rate: Type.Optional(Score01('subtracted from importance', { default: DEFAULT_DECAY_RATE })),
    workspace_id: WorkspaceIdField,
  },
  { additionalProperties: false },
);

export const ListMemoriesQuery = Type.Object(
  {
    workspace_id: WorkspaceIdField,
    limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
    cursor: Type.Optional(Type.String({ maxLength: 512, description: 'next_cursor of the previous page' })),
    type: Type.Optional(Type.Array(MemoryTypeField, { description: 'repeat to allow several' })),
    subtype: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'all must be present' })),
    status: StringEnum(['active', 'archived', 'deleted', 'all'] as const, { default: 'active' }),
    context_id: Type.Optional(Type.String({ minLength: 1 })),
    user_id: Type.Optional(Type.String({ minLength: 1 })),
    subject_id: Type.Optional(Type.String({ minLength: 1 })),
    observer_id: Type.Optional(Type.String({ minLength: 1 })),
    session_id: Type.Optional(Type.String({ minLength: 1 })),
    created_after: Type.Optional(Timestamp),
    created_before: Type.Optional(Timestamp),
  },
  { additionalProperties: false },
);
export type ListMemoriesQuery = Static<typeof ListMemoriesQuery>;

export const MemoryListResponse = Type.Object({
  memories: Type.Array(Memory),
  next_cursor: Nullable(Type.String()),
  total_count: Type.Integer(),
});

export const DeleteMemoryQuery = Type.Object(
  { hard: Type.Boolean({ default: false }), workspace_id: WorkspaceIdField },
  { additionalProperties: false },
);
