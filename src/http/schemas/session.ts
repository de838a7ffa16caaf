import {
  DEFAULT_BRIEFING_OPTIONS,
  SESSION_BRIEFING_LOOKBACK_HOURS,
  type BriefingOptions,
} from '../../core/sessions/briefing.js';
import { DEFAULT_COMMIT_OPTIONS, type CommitOptions } from '../../core/sessions/commit.js';
import type { SessionInput, StartBriefingRequest } from '../../core/sessions/service.js';
import { Type, type Static } from 'typebox';
import { SessionRecord, WorkingMemoryEntryRecord } from '../../schemas/session.js';
import { EXTRACTION_CATEGORIES } from '../../core/extraction/categories.js';
import { DETAIL_LEVELS } from '../../core/memories/tiers.js';
import { Identifier, JsonObject, Nullable, Score01, StringEnum, Timestamp, WorkspaceIdField } from './common.js';
import { Contradiction } from './contradiction.js';
import { MemoryTypeField } from './memory.js';

export const TtlSeconds = (description: string) => Type.Integer({ minimum: 60, maximum: 86_400, description });

/** A session as stored (src/schemas/session.ts), without its working memory: what lists show. */
export const SessionSummary = SessionRecord;

export const Session = Type.Object({ ...SessionRecord.properties, working_memory: JsonObject }, { title: 'Session' });

export const CreateSessionBody = Type.Object(
  {
    session_id: Type.Optional(Identifier('choose the id instead of a generated sess_…')),
    workspace_id: WorkspaceIdField,
    ttl_seconds: Type.Optional(TtlSeconds('time to live; default 3600')),
    metadata: Type.Optional(JsonObject),
    context_id: Type.Optional(Identifier('created if absent; default `_default`')),
    user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    working_memory: Type.Optional(JsonObject),
    briefing: Type.Optional(Type.Boolean({ default: false, description: 'also return a briefing of the workspace' })),
    briefing_options: Type.Optional(
      Type.Object(
        {
          lookback_hours: Type.Optional(
            Type.Number({
              exclusiveMinimum: 0,
              maximum: 8_760,
              description: `default ${SESSION_BRIEFING_LOOKBACK_HOURS}`,
            }),
          ),
          detail_level: Type.Optional(StringEnum(DETAIL_LEVELS, { description: 'default abstract' })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'default 10' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const SessionParams = Type.Object({ session_id: Type.String({ minLength: 1, maxLength: 256 }) });

export type CreateSessionBody = Static<typeof CreateSessionBody>;

/** A session start as the API states it: the session's fields, and the briefing asked for with it (null: none). */
export function toSessionStart(body: CreateSessionBody): {
  input: SessionInput;
  briefing: StartBriefingRequest | null;
} {
  const { briefing, briefing_options: options, workspace_id: _named, ...input } = body;
  return {
    input,
    briefing: briefing
      ? { lookbackHours: options?.lookback_hours, detailLevel: options?.detail_level, limit: options?.limit }
      : null,
  };
}

export const WorkingMemoryBody = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 512 }),
    value: Type.Unknown({ description: 'any JSON value' }),
    ttl_seconds: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 86_400 * 30 }))),
  },
  { additionalProperties: false },
);

export const WorkingMemoryEntry = WorkingMemoryEntryRecord;

export const BriefingQuery = Type.Object(
  {
    workspace_id: WorkspaceIdField,
    lookback_minutes: Type.Integer({ minimum: 1, maximum: 525_600, default: DEFAULT_BRIEFING_OPTIONS.lookbackMinutes }),
    detail_level: StringEnum(DETAIL_LEVELS, { default: DEFAULT_BRIEFING_OPTIONS.detailLevel }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_BRIEFING_OPTIONS.limit }),
    include_memories: Type.Boolean({ default: DEFAULT_BRIEFING_OPTIONS.includeMemories }),
    include_contradictions: Type.Boolean({ default: DEFAULT_BRIEFING_OPTIONS.includeContradictions }),
  },
  { additionalProperties: false },
);

export type BriefingQuery = Static<typeof BriefingQuery>;

/** Briefing options as the API states them, in the briefing's terms. */
export const toBriefingOptions = (q: BriefingQuery): BriefingOptions => ({
  lookbackMinutes: q.lookback_minutes,
  detailLevel: q.detail_level,
  limit: q.limit,
  includeMemories: q.include_memories,
  includeContradictions: q.include_contradictions,
});

const BriefingMemory = Type.Object({
  id: Type.String(),
  content: Type.String({ description: 'the text at the requested detail level' }),
  type: MemoryTypeField,
  subtype: Nullable(Type.String()),
  importance: Type.Number(),
  tags: Type.Array(Type.String()),
  session_id: Nullable(Type.String()),
  created_at: Timestamp,
});

const BriefingContradiction = Type.Object({
  ...Contradiction.properties,
  memory_a_content: Nullable(Type.String()),
  memory_b_content: Nullable(Type.String()),
});

export const Briefing = Type.Object({
  workspace_id: Type.String(),
  summary: Type.String({
    description: 'new memories, active sessions, open chat threads and unresolved contradictions, in words',
  }),
  recent_memories: Type.Array(BriefingMemory),
  contradictions: Type.Array(BriefingContradiction),
  lookback_minutes: Type.Integer(),
  generated_at: Timestamp,
  workspace_summary: Type.Object(
    {
      total_memories: Type.Integer({ description: 'active memories in the workspace' }),
      recent_memories: Type.Integer({ description: 'memories written in the lookback window' }),
      active_topics: Type.Array(Type.String(), { description: 'the most frequent tags among the recent memories' }),
      total_categories: Type.Integer({
        description: 'distinct subtypes (or types, for memories without one) among active memories',
      }),
      total_associations: Type.Integer(),
      memory_types: Type.Record(Type.String(), Type.Integer(), { description: 'active memories by type' }),
    },
    { description: 'the workspace in figures (the shape client libraries read)' },
  ),
  recent_activity: Type.Array(
    Type.Object({
      timestamp: Timestamp,
      session_id: Nullable(Type.String()),
      summary: Type.String(),
      memories_created: Type.Integer(),
      key_decisions: Type.Array(Type.String()),
    }),
    { description: 'the recent memories grouped by session, newest first' },
  ),
  open_threads: Type.Array(
    Type.Object({
      id: Type.String(),
      thread_id: Type.String(),
      title: Nullable(Type.String()),
      message_count: Type.Integer(),
      pending_messages: Type.Integer(),
      updated_at: Timestamp,
    }),
    { description: 'chat threads active in the lookback window' },
  ),
  contradictions_detected: Type.Array(BriefingContradiction, { description: 'the same list as contradictions' }),
  memories: Type.Array(BriefingMemory, { description: 'the same list as recent_memories' }),
});

export const CommitBody = Type.Object(
  {
    min_importance: Type.Optional(
      Score01('entries scored below are not committed', { default: DEFAULT_COMMIT_OPTIONS.minImportance }),
    ),
    deduplicate: Type.Optional(
      Type.Boolean({
        default: DEFAULT_COMMIT_OPTIONS.deduplicate,
        description: 'check long-term memory for near-duplicates',
      }),
    ),
    categories: Type.Optional(
      Nullable(Type.Array(StringEnum(EXTRACTION_CATEGORIES), { minItems: 1, description: 'null: all' })),
    ),
    max_memories: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 500, default: DEFAULT_COMMIT_OPTIONS.maxMemories }),
    ),
  },
  { additionalProperties: false },
);

export type CommitBody = Static<typeof CommitBody>;

/** Commit options as the API states them; unset fields take the defaults. */
export const toCommitOptions = (b: CommitBody): { [K in keyof CommitOptions]?: CommitOptions[K] | undefined } => ({
  minImportance: b.min_importance,
  deduplicate: b.deduplicate,
  categories: b.categories,
  maxMemories: b.max_memories,
});

export const CommitResponse = Type.Object({
  session_id: Type.String(),
  memories_extracted: Type.Integer({ description: 'entries above the thresholds, deduplicated ones included' }),
  memories_deduplicated: Type.Integer(),
  memories_created: Type.Integer(),
  breakdown: Type.Record(Type.String(), Type.Integer(), { description: 'category to memories created' }),
  extraction_time_ms: Type.Integer(),
});
