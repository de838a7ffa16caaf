import { Type } from 'typebox';
import { ContextRecord, WorkspaceRecord } from '../../schemas/workspace.js';
import { Identifier, JsonObject, NonBlank } from './common.js';

/** The one declaration of a workspace and of a context: src/schemas/workspace.ts. */
export const Workspace = WorkspaceRecord;

export const WorkspaceEnvelope = Type.Object({ workspace: Workspace });

export const CreateWorkspaceBody = Type.Object(
  {
    name: NonBlank({ maxLength: 200 }),
    settings: Type.Optional(JsonObject),
    id: Type.Optional(Identifier('choose the id instead of a generated ws_…')),
  },
  { additionalProperties: false },
);

export const UpdateWorkspaceBody = Type.Object(
  { name: Type.Optional(NonBlank({ maxLength: 200 })), settings: Type.Optional(JsonObject) },
  { additionalProperties: false, minProperties: 1 },
);

export const WorkspaceParams = Type.Object({ workspace_id: Type.String({ minLength: 1, maxLength: 128 }) });

export const SchemaResponse = Type.Object({
  memory_types: Type.Array(Type.String({ description: 'episodic, semantic, procedural, working' })),
  relationship_types: Type.Array(Type.String()),
  relationship_categories: Type.Record(Type.String(), Type.Array(Type.String()), {
    description: 'each of the 11 categories with its types',
  }),
  memory_subtypes: Type.Array(Type.String()),
  can_customize: Type.Boolean(),
});

export const Context = ContextRecord;

export const CreateContextBody = Type.Object(
  {
    name: NonBlank({ maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    settings: Type.Optional(JsonObject),
    id: Type.Optional(Identifier('choose the id instead of a generated ctx_…')),
  },
  { additionalProperties: false },
);
