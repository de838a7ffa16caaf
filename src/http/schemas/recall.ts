import type { CallerRecallRequest, CallerReflectRequest } from '../../core/recall/caller.js';
import { MATCH_SIGNALS } from '../../core/recall/types.js';
import { DEFAULT_REFLECT_DEPTH } from '../../core/reflect/service.js';
import { Type, type Static } from 'typebox';
import { Memory, MemoryTypeField } from './memory.js';
import { NonBlank, Nullable, Score01, StringEnum, Timestamp, WorkspaceIdField } from './common.js';

const QUERY_MAX_CHARS = 10_000;
const Strings = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 100, description });
const ScopeId = Type.String({ minLength: 1, maxLength: 256 });

const DetailLevel = StringEnum(['abstract', 'overview', 'full'] as const, {
  description: 'abstract: the ~100-character tier; overview: the ~500-character tier; full: the content (default)',
});

/** Filters recall and reflect share. */
const filterFields = {
  types: Type.Optional(Type.Array(MemoryTypeField, { maxItems: 4, description: 'only these types' })),
  subtypes: Type.Optional(Strings('only these subtypes')),
  tags: Type.Optional(Strings('every tag must be present (AND)')),
  context_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      description: 'only this context (default: any; the session’s context is preferred by the scope boost)',
    }),
  ),
  observer_id: Type.Optional(ScopeId),
  subject_id: Type.Optional(ScopeId),
};

export const RecallBody = Type.Object(
  {
    query: NonBlank({ maxLength: QUERY_MAX_CHARS, description: 'what to recall, in words' }),
    workspace_id: WorkspaceIdField,
    ...filterFields,
    user_id: Type.Optional(ScopeId),
    mode: Type.Optional(
      StringEnum(['rag', 'llm', 'hybrid', 'agentic'] as const, {
        description: 'rag (default); llm, hybrid and agentic are deprecated and answered by the rag engine',
        default: 'rag',
      }),
    ),
    tolerance: Type.Optional(
      StringEnum(['loose', 'moderate', 'strict'] as const, {
        description: 'relevance floor: loose 0.15, moderate 0.3 (default), strict 0.6',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
    min_relevance: Type.Optional(
      Nullable(Score01('null: the tolerance floor; 0: no floor; else max(min_relevance, floor)')),
    ),
    recency_weight: Type.Optional(Score01('0 ignores age; default 0.2, 0.5 for time-minded queries')),
    include_associations: Type.Optional(Type.Boolean({ description: 'expand over associations (default true)' })),
    traverse_depth: Type.Optional(Type.Integer({ minimum: 0, maximum: 5, description: 'expansion hops (default 2)' })),
    max_expansion: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 500,
        description: 'at most this many memories discovered by expansion (default 50)',
      }),
    ),
    created_after: Type.Optional(Timestamp),
    created_before: Type.Optional(Timestamp),
    context: Type.Optional(
      Type.Array(
        Type.Object(
          { role: Type.String({ minLength: 1, maxLength: 32 }), content: Type.String({ maxLength: 20_000 }) },
          { additionalProperties: false },
        ),
        {
          maxItems: 100,
          description: 'recent conversation; with a language model configured, the query is rewritten to stand alone',
        },
      ),
    ),
    rag_threshold: Type.Optional(
      Score01('with an LLM reranker configured, rerank when the best relevance is below this (default 0.8)'),
    ),
    detail_level: Type.Optional(DetailLevel),
    include_archived: Type.Optional(Type.Boolean({ default: false })),
    exclude_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 1_000 })),
    explain: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'add `explanation` to the response and to each memory: where each arm placed it, its ranking features and boosts, and the best candidates left out',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RecallBody = Static<typeof RecallBody>;

const MatchSignal = StringEnum(MATCH_SIGNALS);
const ArmRanks = Type.Record(Type.String(), Type.Integer({ minimum: 1 }), {
  description: 'arm (vector, fact, keyword, entity, temporal, graph) to the place, from 1, it gave the memory',
});

const ResultExplanation = Type.Object(
  {
    found_by: StringEnum(['search', 'context', 'association'] as const, {
      description: 'search: the arms; context: a neighbouring turn of a found one; association: expansion',
    }),
    arm_ranks: ArmRanks,
    features: Nullable(
      Type.Record(Type.String(), Type.Number(), {
        description:
          'ranking features, each 0..1 (keyword, similarity, topical, fact, coverage, synonym, complete, keyword_context, fused, about, in_window); null unless found by search',
      }),
    ),
    boosts: Nullable(
      Type.Object(
        { scope: Type.Number(), recency: Type.Number(), backlink: Type.Number() },
        { description: 'factors multiplied into the ranking score' },
      ),
    ),
  },
  { title: 'RecallResultExplanation' },
);

const RecallExplanation = Type.Object(
  {
    arms: Type.Array(Type.String(), { description: 'the arms that ran' }),
    arm_depth: Type.Integer({
      description: 'candidates each arm returns: a memory placed by no arm within this many was not a candidate',
    }),
    relevance_floor: Type.Number(),
    recency_weight: Type.Number(),
    candidates: Type.Integer({ description: 'distinct candidates the arms proposed, before filters and the floor' }),
    synonyms: Type.Record(Type.String(), Type.Array(Type.String()), {
      description:
        'words of the query that match no memory of the workspace, each with what is searched in its place: synonyms of its most frequent sense, or where none matches, the broader words it is a kind of, or where none of those matches either, narrower words that are kinds of it, or then, words of its later senses, or last, words used most like it (by GloVe word vectors), either only where a memory holds them beside the other words of the query; the words of a phrase that matches nothing ("try out") each with what the phrase is searched as; a word neither the workspace nor the thesaurus holds, with the word one slip away (a letter left out, added, changed or two swapped) that the most memories hold ("vacaton": ["vacation"])',
    }),
    left_out: Type.Array(
      Type.Object({
        id: Type.String(),
        content: Type.String({ description: 'its first 200 characters' }),
        relevance_score: Type.Number(),
        boosted_score: Type.Number({ description: '0 when under the floor (not ranked)' }),
        arm_ranks: ArmRanks,
        reason: StringEnum(['below_floor', 'past_limit'] as const),
      }),
      { description: 'the best candidates not returned, up to 20 of each reason' },
    ),
  },
  { title: 'RecallExplanation' },
);

export const RecalledMemory = Type.Object({
  ...Memory.properties,
  relevance: Type.Number({ description: 'same as relevance_score' }),
  relevance_score: Type.Number({
    description: 'evidence, 0..1: the larger of cosine similarity and the share of query words present',
  }),
  boosted_score: Type.Number({
    description: 'the ranking score: fused rank evidence x scope, recency and backlink boosts',
  }),
  trust_score: Type.Number(),
  freshness: Type.Number(),
  staleness: StringEnum(['none', 'mild', 'moderate', 'severe'] as const),
  match_signals: Type.Array(MatchSignal, {
    description:
      'what found or boosted the memory, sorted; contradicted: a later memory contradicts it (unresolved), and comes before it when both are in the answer',
  }),
  explanation: Type.Optional(ResultExplanation),
});

export const RecallResponse = Type.Object({
  memories: Type.Array(RecalledMemory),
  total_count: Type.Integer(),
  mode_used: StringEnum(['rag', 'hybrid'] as const, { description: 'rag; hybrid when the LLM reranker ran' }),
  search_latency_ms: Type.Number({ description: 'server-side time of the recall, query embedding included' }),
  query_embedding_ms: Type.Number({ description: 'of which embedding the query (0 when cached)' }),
  query_tokens: Type.Integer(),
  query_rewritten: Nullable(Type.String()),
  token_summary: Type.Object({
    returned: Type.Integer(),
    full_would_be: Type.Integer(),
    savings_percent: Type.Number(),
  }),
  intents: Type.Array(StringEnum(['entity', 'temporal', 'event', 'general'] as const)),
  cached: Type.Boolean(),
  explanation: Type.Optional(RecallExplanation),
});

export const ReflectBody = Type.Object(
  {
    query: NonBlank({ maxLength: QUERY_MAX_CHARS, description: 'the question to reflect on' }),
    workspace_id: WorkspaceIdField,
    detail_level: Type.Optional(DetailLevel),
    include_sources: Type.Optional(Type.Boolean({ default: true })),
    depth: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 5,
        default: DEFAULT_REFLECT_DEPTH,
        description: 'association hops, and 5 memories per level',
      }),
    ),
    ...filterFields,
  },
  { additionalProperties: false },
);
export type ReflectBody = Static<typeof ReflectBody>;

export const ReflectResponse = Type.Object({
  reflection: Type.String(),
  source_memories: Type.Array(Type.String()),
  confidence: Type.Number(),
  tokens_processed: Type.Integer(),
  synthesis: StringEnum(['llm', 'extractive'] as const, {
    description: 'extractive: no language model is configured; the memories are quoted, not synthesised',
  }),
  metadata: Type.Object({
    sources: StringEnum(['cited', 'all_given', 'none'] as const, {
      description:
        'cited: the memories the answer cites; all_given: the model cited none, so every memory in its prompt; none: nothing was found',
    }),
  }),
});

/** The memory filters recall and reflect share, from the API's names to the engine's. */
const filtersOf = (b: RecallBody | ReflectBody) => ({
  types: b.types,
  subtypes: b.subtypes,
  tags: b.tags,
  contextId: b.context_id,
  observerId: b.observer_id,
  subjectId: b.subject_id,
});

/** A recall as the API states it, in the engine's terms: read once for every transport (HTTP, MCP). */
export const toRecallRequest = (b: RecallBody): CallerRecallRequest => ({
  query: b.query,
  ...filtersOf(b),
  userId: b.user_id,
  mode: b.mode === 'agentic' ? 'rag' : b.mode,
  tolerance: b.tolerance,
  limit: b.limit,
  minRelevance: b.min_relevance,
  recencyWeight: b.recency_weight,
  includeAssociations: b.include_associations,
  traverseDepth: b.traverse_depth,
  maxExpansion: b.max_expansion,
  createdAfter: b.created_after,
  createdBefore: b.created_before,
  context: b.context,
  ragThreshold: b.rag_threshold,
  detailLevel: b.detail_level,
  includeArchived: b.include_archived,
  excludeIds: b.exclude_ids,
  explain: b.explain,
});

/** A reflect request as the API states it, in the engine's terms. */
export const toReflectRequest = (b: ReflectBody): CallerReflectRequest => ({
  query: b.query,
  detailLevel: b.detail_level,
  includeSources: b.include_sources,
  depth: b.depth,
  ...filtersOf(b),
});
