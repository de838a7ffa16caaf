import { Type } from 'typebox';
import { ErasureAuditRecord, ErasureCountsRecord } from '../../schemas/erasure.js';
import { Identifier, Timestamp } from './common.js';

const PersonId = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 256, description }));

export const ErasureBody = Type.Object(
  {
    user_id: PersonId('erase everything of this user (give this or subject_id)'),
    subject_id: PersonId('erase everything about this subject (give this or user_id)'),
    workspace_id: Type.Optional(
      Identifier(
        'the workspace to erase in; default: from X-Workspace-ID, then the X-Session-ID session, then `_default`',
      ),
    ),
    all_workspaces: Type.Optional(
      Type.Boolean({
        description:
          'erase in every workspace the caller may use (the admin: all of them, and the user’s entries above workspaces)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The one declaration of the counts and of the audit record: src/schemas/erasure.ts. */
export const ErasureCountsSchema = ErasureCountsRecord;
export const ErasureAuditSchema = ErasureAuditRecord;

export const ErasureResult = Type.Object({
  id: Type.String({ description: 'the audit record (GET /v1/erasures)' }),
  erased_at: Timestamp,
  selector: Type.Object({ user_id: Type.Optional(Type.String()), subject_id: Type.Optional(Type.String()) }),
  workspaces: Type.Array(Type.String(), { description: 'where the erasure ran' }),
  removed: ErasureCountsSchema,
});

export const ErasureAuditQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000, default: 100 })) },
  { additionalProperties: false },
);
