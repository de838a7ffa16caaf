import { Type } from 'typebox';
import { ContradictionRecord, RESOLUTIONS } from '../../schemas/contradiction.js';
import { NonBlank, StringEnum, WorkspaceIdField } from './common.js';

/** The one declaration of a contradiction: src/schemas/contradiction.ts. */
export const Contradiction = ContradictionRecord;

export const ListContradictionsQuery = Type.Object(
  { limit: Type.Integer({ minimum: 1, maximum: 500, default: 10 }) },
  { additionalProperties: false },
);

export const ResolveBody = Type.Object(
  {
    resolution: StringEnum(RESOLUTIONS, {
      description:
        'keep_a soft-deletes b, keep_b soft-deletes a, keep_both keeps both, merge replaces both with merged_content',
    }),
    merged_content: Type.Optional(NonBlank({ maxLength: 200_000, description: 'required for merge' })),
  },
  { additionalProperties: false },
);

export const ScanBody = Type.Object(
  {
    batch_size: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 500, default: 100, description: 'most recent memories checked' }),
    ),
  },
  { additionalProperties: false },
);

export const ScanResponse = Type.Object({
  workspace_id: Type.String(),
  contradictions_found: Type.Integer(),
  contradictions: Type.Array(Contradiction),
});

export const ResolveQuery = Type.Object({ workspace_id: WorkspaceIdField }, { additionalProperties: false });
