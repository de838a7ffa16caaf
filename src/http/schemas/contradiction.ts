import { Type } from 'typebox';
import { NonBlank, Nullable, StringEnum, Timestamp, WorkspaceIdField } from './common.js';

export const RESOLUTIONS = ['keep_a', 'keep_b', 'keep_both', 'merge'] as const;

export const Contradiction = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  memory_a_id: Type.String({ description: 'the earlier memory' }),
  memory_b_id: Type.String({ description: 'the later memory' }),
  contradiction_type: Type.String({ description: 'negation, number_change, date_change, exclusive_value (or other, from a language model)' }),
  confidence: Type.Number(),
  detection_method: Type.String({ description: 'rules or llm' }),
  explanation: Nullable(Type.String()),
  detected_at: Timestamp,
  resolved_at: Nullable(Timestamp),
  resolution: Nullable(StringEnum(RESOLUTIONS)),
  merged_memory_id: Nullable(Type.String({ description: 'the memory that replaced both (merge)' })),
});

export const ListContradictionsQuery = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 500, default: 10 }) }, { additionalProperties: false });

export const ResolveBody = Type.Object(
  {
    resolution: StringEnum(RESOLUTIONS, { description: 'keep_a soft-deletes b, keep_b soft-deletes a, keep_both keeps both, merge replaces both with merged_content' }),
    merged_content: Type.Optional(NonBlank({ maxLength: 200_000, description: 'required for merge' })),
  },
  { additionalProperties: false },
);

export const ScanBody = Type.Object(
  { batch_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100, description: 'most recent memories checked' })) },
  { additionalProperties: false },
);

export const ScanResponse = Type.Object({ workspace_id: Type.String(), contradictions_found: Type.Integer(), contradictions: Type.Array(Contradiction) });

export const ResolveQuery = Type.Object({ workspace_id: WorkspaceIdField }, { additionalProperties: false });
