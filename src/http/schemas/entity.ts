import { Type } from 'typebox';
import { EntityCardRecord } from '../../schemas/entity.js';
import { WorkspaceIdField } from './common.js';
import { Memory } from './memory.js';

const ObserverId = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 256,
    description: 'whose perspective: memories observed by them, insights kept for them',
  }),
);

export const EntityParams = Type.Object({
  entity_id: Type.String({ minLength: 1, maxLength: 256, description: 'the subject_id memories are about' }),
});

export const DeriveBody = Type.Object(
  {
    workspace_id: WorkspaceIdField,
    observer_id: ObserverId,
    force: Type.Boolean({ default: false, description: 're-derive even when the insights are up to date' }),
  },
  { additionalProperties: false },
);

export const DeriveResponse = Type.Object({
  subject_id: Type.String(),
  workspace_id: Type.String(),
  insights_created: Type.Integer(),
  insights_updated: Type.Integer(),
  source_memory_count: Type.Integer(),
  insights: Type.Array(Memory),
});

export const CardQuery = Type.Object(
  { workspace_id: WorkspaceIdField, force_refresh: Type.Boolean({ default: false }) },
  { additionalProperties: false },
);

/** The one declaration of an entity's card: src/schemas/entity.ts. */
export const CardResponse = EntityCardRecord;

export const InsightsQuery = Type.Object(
  {
    workspace_id: WorkspaceIdField,
    observer_id: ObserverId,
    limit: Type.Integer({ minimum: 1, maximum: 500, default: 20 }),
  },
  { additionalProperties: false },
);

export const InsightsResponse = Type.Object({
  entity_id: Type.String(),
  workspace_id: Type.String(),
  insights: Type.Array(Memory),
  total_count: Type.Integer(),
});
