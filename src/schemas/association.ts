import { Type, type Static } from 'typebox';
import { JsonObject, Timestamp } from './primitives.js';

/** A directed, typed link between two memories, declared once: response schema and stored record. */
export const AssociationRecord = Type.Object(
  {
    id: Type.String(),
    workspace_id: Type.String(),
    source_id: Type.String(),
    target_id: Type.String(),
    relationship: Type.String({ description: 'a type of the taxonomy, lower-case' }),
    strength: Type.Number(),
    metadata: JsonObject,
    created_at: Timestamp,
  },
  { title: 'Association' },
);
export type Association = Static<typeof AssociationRecord>;
