import { Type, type Static } from 'typebox';
import type { TraverseOptions } from '../../core/graph/traverse.js';
import { AssociationRecord } from '../../schemas/association.js';
import { JsonObject, Nullable, Score01, StringEnum, Timestamp, WorkspaceIdField } from './common.js';
import { Memory } from './memory.js';

const DIRECTIONS = ['outgoing', 'incoming', 'both'] as const;
const Direction = StringEnum(DIRECTIONS, {
  description: 'outgoing (this memory is the source), incoming (it is the target) or both',
  default: 'both',
});
const MemoryId = Type.String({ minLength: 1, maxLength: 256 });
const RelationshipName = Type.String({ minLength: 1, maxLength: 64 });

/** The one declaration of an association: src/schemas/association.ts. */
export const Association = AssociationRecord;

export const AssociateBody = Type.Object(
  {
    target_id: MemoryId,
    relationship: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'one of the 63 types of GET /v1/workspaces/{id}/schema, any case (stored lower-case)',
    }),
    strength: Type.Optional(Score01('0.8-1.0 strong/verified, 0.5-0.7 moderate, 0.1-0.4 weak', { default: 0.5 })),
    metadata: Type.Optional(JsonObject),
    workspace_id: WorkspaceIdField,
  },
  { additionalProperties: false },
);
export type AssociateBody = Static<typeof AssociateBody>;

export const AssociationEnvelope = Type.Object({ association: Association });

export const ListAssociationsQuery = Type.Object(
  {
    relationships: Type.Optional(
      Type.Array(Type.String({ maxLength: 2000 }), {
        description: 'comma-separated relationship types (any case); repeatable',
      }),
    ),
    direction: Direction,
    workspace_id: WorkspaceIdField,
  },
  { additionalProperties: false },
);

export const AssociationListResponse = Type.Object({
  associations: Type.Array(Association),
  total_count: Type.Integer(),
});

const NameList = (description: string) =>
  Type.Optional(Nullable(Type.Array(RelationshipName, { maxItems: 100, description })));

export const TraverseBody = Type.Object(
  {
    max_depth: Type.Integer({ minimum: 1, maximum: 5, default: 2, description: 'hops from the start memory' }),
    relationship_types: NameList('only these types (any case); empty: all'),
    relationship_categories: NameList(
      'only types of these categories (causal, solution, …); combined with relationship_types as a union',
    ),
    direction: Direction,
    min_strength: Score01('edges weaker than this are not followed', { default: 0 }),
    max_paths: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
    max_nodes: Type.Integer({
      minimum: 1,
      maximum: 1000,
      default: 50,
      description: 'distinct memories in the result, the start included',
    }),
    workspace_id: WorkspaceIdField,
  },
  { additionalProperties: false },
);
export type TraverseBody = Static<typeof TraverseBody>;

/** A traversal as the API states it, in the graph's terms: read once for every transport (HTTP, MCP). */
export const toTraverseOptions = (b: TraverseBody): TraverseOptions => ({
  maxDepth: b.max_depth,
  relationshipTypes: b.relationship_types ?? undefined,
  relationshipCategories: b.relationship_categories ?? undefined,
  direction: b.direction,
  minStrength: b.min_strength,
  maxPaths: b.max_paths,
  maxNodes: b.max_nodes,
});

const PathEdge = Type.Object({
  id: Type.String(),
  source: Type.String(),
  target: Type.String(),
  source_id: Type.String(),
  target_id: Type.String(),
  relationship: Type.String(),
  strength: Type.Number(),
  auto_generated: Type.Boolean({
    description: 'a link memd made itself (similarity, fact decomposition, contradiction), not one a client stated',
  }),
});

export const TraverseResponse = Type.Object({
  paths: Type.Array(
    Type.Object({
      nodes: Type.Array(Type.String(), { description: 'memory ids from the start memory on' }),
      edges: Type.Array(PathEdge),
      total_strength: Type.Number({ description: 'product of the edge strengths' }),
      depth: Type.Integer({
        description: 'links in this path; automatic links often make a path shorter than a chain of stated ones',
      }),
    }),
  ),
  unique_nodes: Type.Array(Type.String()),
  total_paths: Type.Integer(),
  query_latency_ms: Type.Number(),
});

const MemoryRef = Type.Object({
  id: Type.String(),
  type: Type.String(),
  subtype: Nullable(Type.String()),
  status: Type.String(),
  abstract: Type.String(),
  created_at: Timestamp,
});

export const TraceResponse = Type.Object({
  memory: Memory,
  source: Type.Object({
    kind: StringEnum(['derived', 'chat', 'session', 'direct'] as const),
    source_memory_id: Nullable(Type.String()),
    source_scope: Nullable(Type.String()),
    session_id: Nullable(Type.String()),
    user_id: Nullable(Type.String()),
    observer_id: Nullable(Type.String()),
    metadata_source: Type.Unknown(),
    thread_id: Type.Unknown(),
  }),
  source_chain: Type.Array(
    Type.Intersect([MemoryRef, Type.Object({ via: StringEnum(['source_memory_id', 'part_of'] as const) })]),
  ),
  derived_memory_ids: Type.Array(Type.String()),
  categories: Type.Array(
    Type.Object({
      category: Type.String(),
      count: Type.Integer(),
      relationships: Type.Record(Type.String(), Type.Integer()),
    }),
  ),
  association_chain: Type.Array(
    Type.Object({
      association: Association,
      direction: StringEnum(DIRECTIONS.slice(0, 2)),
      category: Nullable(Type.String()),
      memory: MemoryRef,
    }),
  ),
  articles: Type.Array(Type.Object({ id: Type.String(), title: Type.String(), kind: Type.String() })),
});
