import { Type, type Static } from 'typebox';
import { MemoryRecord } from './memory.js';
import { JsonObject, Timestamp } from './primitives.js';

/** What memd knows about an entity (a subject), declared once: the API's answer, and what its cache keeps. */
export const EntityCardRecord = Type.Object(
  {
    entity_id: Type.String(),
    workspace_id: Type.String(),
    reflection: Type.String(),
    insights: Type.Array(MemoryRecord),
    source_memories: Type.Array(MemoryRecord),
    confidence: Type.Number(),
    cached: Type.Boolean(),
    generated_at: Timestamp,
  },
  { title: 'EntityCard' },
);
export type EntityCard = Static<typeof EntityCardRecord>;

/**
 * An entity's card as cached, declared once: rebuilt when the memories about the subject change. Storage keeps the
 * card as JSON it does not read (core wrote it, an EntityCard).
 */
export const CachedEntityCardRecord = Type.Object({
  workspace_id: Type.String(),
  entity_id: Type.String(),
  card: JsonObject,
  fingerprint: Type.String({
    description: 'subjectFingerprint() when the card was generated: a different value now means it is stale',
  }),
  generated_at: Timestamp,
});
export type CachedEntityCard = Static<typeof CachedEntityCardRecord>;
