import { Type } from 'typebox';
import { Identifier, JsonObject, Nullable, Timestamp, WorkspaceIdField } from './common.js';

export const TtlSeconds = (description: string) => Type.Integer({ minimum: 60, maximum: 86_400, description });

export const Session = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  tenant_id: Type.String(),
  context_id: Type.String(),
  user_id: Nullable(Type.String()),
  working_memory: JsonObject,
  metadata: JsonObject,
  ttl_seconds: Type.Integer(),
  expires_at: Timestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const SessionSummary = Type.Omit(Session, ['working_memory']);

export const CreateSessionBody = Type.Object(
  {
    session_id: Type.Optional(Identifier('choose the id instead of a generated sess_…')),
    workspace_id: WorkspaceIdField,
    ttl_seconds: Type.Optional(TtlSeconds('time to live; default 3600')),
    metadata: Type.Optional(JsonObject),
    context_id: Type.Optional(Identifier('created if absent; default `_default`')),
    user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    working_memory: Type.Optional(JsonObject),
  },
  { additionalProperties: false },
);

export const SessionParams = Type.Object({ session_id: Type.String({ minLength: 1, maxLength: 256 }) });

export const WorkingMemoryBody = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 512 }),
    value: Type.Unknown({ description: 'any JSON value' }),
    ttl_seconds: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 86_400 * 30 }))),
  },
  { additionalProperties: false },
);

export const WorkingMemoryEntry = Type.Object({
  key: Type.String(),
  value: Type.Unknown(),
  ttl_seconds: Nullable(Type.Integer()),
  expires_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});
