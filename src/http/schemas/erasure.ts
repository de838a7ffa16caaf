import { Type } from 'typebox';
import { Identifier, Timestamp } from './common.js';

const PersonId = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 256, description }));

export const ErasureBody = Type.Object(
  {
    user_id: PersonId('erase everything of this user (give this or subject_id)'),
    subject_id: PersonId('erase everything about this subject (give this or user_id)'),
    workspace_id: Type.Optional(Identifier('the workspace to erase in; default: from X-Workspace-ID, then the X-Session-ID session, then `_default`')),
    all_workspaces: Type.Optional(Type.Boolean({ description: 'erase in every workspace the caller may use (the admin: all of them, and the user’s entries above workspaces)' })),
  },
  { additionalProperties: false },
);

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const ErasureCountsSchema = Type.Object(
  {
    memories: Count('memories hard-deleted with their vectors and keyword entries, derived facts and insights included'),
    associations: Count('links to or from them'),
    contradictions: Count('contradiction records naming them'),
    document_links: Count('links from documents to them (the documents stay)'),
    knowledgebase_articles: Count('knowledgebase articles citing them, and the index that lists those'),
    entity_cards: Count('cached entity cards quoting them'),
    sessions: Count('sessions of the user'),
    working_memory_entries: Count('working-memory entries of those sessions'),
    sandbox_checkpoints: Count('sandbox checkpoints of those sessions'),
    threads: Count('chat threads'),
    messages: Count('messages of those threads'),
    skills: Count('the user’s skills'),
    mcp_servers: Count('the user’s MCP server entries'),
  },
  { description: 'rows removed, by kind' },
);

export const ErasureResult = Type.Object({
  id: Type.String({ description: 'the audit record (GET /v1/erasures)' }),
  erased_at: Timestamp,
  selector: Type.Object({ user_id: Type.Optional(Type.String()), subject_id: Type.Optional(Type.String()) }),
  workspaces: Type.Array(Type.String(), { description: 'where the erasure ran' }),
  removed: ErasureCountsSchema,
});

export const ErasureAuditSchema = Type.Object({
  id: Type.String(),
  erased_at: Timestamp,
  requested_by: Type.String({ description: '`admin`, `local` (no auth configured) or `key:<api key id>`' }),
  selector_kind: Type.Union([Type.Literal('user_id'), Type.Literal('subject_id')]),
  selector_hash: Type.String({ description: 'hex SHA-256 of `memd-erasure:<selector_kind>:<id>`; the id itself is not kept' }),
  workspaces: Type.Array(Type.String()),
  removed: ErasureCountsSchema,
});

export const ErasureAuditQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000, default: 100 })) },
  { additionalProperties: false },
);
