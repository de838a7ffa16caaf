import { Type, type Static } from 'typebox';
import { StringEnum, Timestamp } from './primitives.js';

/** Whose records an erasure removes: everything that carries this user id, or this subject id. */
export const SELECTOR_KINDS = ['user_id', 'subject_id'] as const;
export type SelectorKind = (typeof SELECTOR_KINDS)[number];

const Count = (description: string) => Type.Integer({ minimum: 0, description });

/** How many rows of each kind an erasure removed, declared once. */
export const ErasureCountsRecord = Type.Object(
  {
    memories: Count(
      'memories hard-deleted with their vectors and keyword entries, derived facts and insights included',
    ),
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
export type ErasureCounts = Static<typeof ErasureCountsRecord>;

/**
 * The audit record of an erasure, declared once (response schema and stored record): who asked, when, for whom
 * (hashed), where, and how much went. No content.
 */
export const ErasureAuditRecord = Type.Object(
  {
    id: Type.String(),
    erased_at: Timestamp,
    requested_by: Type.String({ description: '`admin`, `local` (no auth configured) or `key:<api key id>`' }),
    selector_kind: StringEnum(SELECTOR_KINDS),
    selector_hash: Type.String({
      description: 'hex SHA-256 of `memd-erasure:<selector_kind>:<id>`; the id itself is not kept',
    }),
    workspaces: Type.Array(Type.String()),
    removed: ErasureCountsRecord,
  },
  { title: 'ErasureAudit' },
);
export type ErasureAudit = Static<typeof ErasureAuditRecord>;
