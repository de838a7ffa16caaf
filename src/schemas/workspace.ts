import { Type, type Static } from 'typebox';
import { JsonObject, Nullable, Timestamp } from './primitives.js';

/** A workspace, declared once: the API's response schema and (as `Workspace`) the stored record. */
export const WorkspaceRecord = Type.Object(
  {
    id: Type.String(),
    tenant_id: Type.String(),
    name: Type.String(),
    settings: JsonObject,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Workspace' },
);
export type Workspace = Static<typeof WorkspaceRecord>;

/** A context inside a workspace, declared once. */
export const ContextRecord = Type.Object(
  {
    id: Type.String(),
    workspace_id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    settings: JsonObject,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Context' },
);
export type Context = Static<typeof ContextRecord>;
