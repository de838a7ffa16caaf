import { Type, type Static } from 'typebox';
import { StringEnum, WorkspaceIdField } from './common.js';
import { Memory, memoryDraftFields, memoryUpdateFields } from './memory.js';

const MemoryId = Type.String({ minLength: 1, maxLength: 256 });

export const BATCH_MAX_OPERATIONS = 1_000;

const Op = StringEnum(['create', 'update', 'delete'] as const);

/** An item names its operation as `op` (REST) or `action` (the client library's name). */
const BatchItem = Type.Union(
  [
    Type.Object({ op: Op }, { additionalProperties: true }),
    Type.Object({ action: Op }, { additionalProperties: true }),
  ],
  { description: 'one operation: `op` (or `action`) create, update or delete, with its fields' },
);
export type BatchItem = { op?: Static<typeof Op>; action?: Static<typeof Op> } & Record<string, unknown>;

/** The envelope is checked per request; each operation is checked on its own so one bad item fails alone. */
export const BatchBody = Type.Object(
  {
    operations: Type.Array(BatchItem, { minItems: 1, maxItems: BATCH_MAX_OPERATIONS }),
    workspace_id: WorkspaceIdField,
  },
  { additionalProperties: false },
);
export type BatchBody = Static<typeof BatchBody>;

const createOp = Type.Literal('create');
const updateOp = Type.Literal('update');

/** REST item shapes, and the client library's nested ones (`memory`, `updates`). */
export const BatchCreateFlat = Type.Object({ op: createOp, ...memoryDraftFields }, { additionalProperties: false });
export const BatchCreateNested = Type.Object(
  { op: createOp, memory: Type.Object(memoryDraftFields, { additionalProperties: false }) },
  { additionalProperties: false },
);
export const BatchUpdateFlat = Type.Object(
  { op: updateOp, memory_id: MemoryId, ...memoryUpdateFields },
  { additionalProperties: false },
);
export const BatchUpdateNested = Type.Object(
  { op: updateOp, memory_id: MemoryId, updates: Type.Object(memoryUpdateFields, { additionalProperties: false }) },
  { additionalProperties: false },
);
export const BatchDelete = Type.Object(
  { op: Type.Literal('delete'), memory_id: MemoryId, hard: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export const BatchResult = Type.Object({
  index: Type.Integer(),
  type: StringEnum(['create', 'update', 'delete'] as const),
  status: StringEnum(['success', 'error'] as const),
  success: Type.Boolean(),
  memory_id: Type.Optional(Type.String()),
  action: Type.Optional(Type.String({ description: 'for creates: created, skipped, updated or merged' })),
  memory: Type.Optional(Memory),
  error: Type.Optional(Type.String()),
  details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
});

export const BatchResponse = Type.Object({
  total_operations: Type.Integer(),
  total_processed: Type.Integer(),
  successful: Type.Integer(),
  failed: Type.Integer(),
  results: Type.Array(BatchResult),
});
export type BatchResponse = Static<typeof BatchResponse>;
