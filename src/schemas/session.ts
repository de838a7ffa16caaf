import { Type, type Static } from 'typebox';
import { JsonObject, Nullable, Timestamp } from './primitives.js';

/** A session as stored; the API's session adds its working memory (src/http/schemas/session.ts). */
export const SessionRecord = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  tenant_id: Type.String(),
  context_id: Type.String(),
  user_id: Nullable(Type.String()),
  metadata: JsonObject,
  ttl_seconds: Type.Integer(),
  expires_at: Timestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Session = Static<typeof SessionRecord>;

/** One key of a session's working memory, declared once. */
export const WorkingMemoryEntryRecord = Type.Object(
  {
    key: Type.String(),
    value: Type.Unknown({ description: 'any JSON value' }),
    ttl_seconds: Nullable(Type.Integer()),
    expires_at: Nullable(Type.String({ format: 'date-time', description: 'null: lives as long as its session' })),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'WorkingMemoryEntry' },
);
export type WorkingMemoryEntry = Static<typeof WorkingMemoryEntryRecord>;
