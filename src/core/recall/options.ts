import type { MemoryFilter } from '../../storage/types.js';
import type { Intent } from './intent.js';
import type { DetailLevel, RecallRequest, Tolerance } from './types.js';

/** Defaults of the reference service (NOTES.md, "Values from the reference service"), unless noted. */
export const RECALL_DEFAULTS = {
  limit: 10,
  tolerance: 'moderate' as Tolerance,
  detailLevel: 'full' as DetailLevel,
  includeAssociations: true,
  traverseDepth: 2,
  maxExpansion: 50,
  ragThreshold: 0.8,
  recencyWeight: 0.2,
  /** Temporal and event queries care more about when: the reference raises the weight to 0.5. */
  temporalRecencyWeight: 0.5,
};

/**
 * Relevance floors per tolerance. The reference compares cosine similarity with 0.15 / 0.3 / 0.6; our
 * `relevance_score` is the larger of the cosine similarity and the share of query words the memory contains,
 * so the same numbers keep their meaning: "moderate" needs a cosine of 0.3 or 30 % of the query's words.
 */
export const TOLERANCE_FLOORS: Record<Tolerance, number> = { loose: 0.15, moderate: 0.3, strict: 0.6 };

/** The floor a result's relevance_score must reach: null -> the tolerance floor; <= 0 -> none; else the larger. */
export function relevanceThreshold(tolerance: Tolerance, minRelevance: number | null | undefined): number {
  const floor = TOLERANCE_FLOORS[tolerance];
  if (minRelevance === null || minRelevance === undefined) return floor;
  if (minRelevance <= 0) return 0;
  return Math.max(minRelevance, floor);
}

export interface ResolvedOptions {
  limit: number;
  threshold: number;
  recencyWeight: number;
  includeAssociations: boolean;
  traverseDepth: number;
  maxExpansion: number;
  ragThreshold: number;
  detailLevel: DetailLevel;
  filter: MemoryFilter;
  /** The context preferred by the scope boost, if any. */
  scopeContextId: string | undefined;
  explain: boolean;
}

/** The request's filters as a storage filter; archived memories only on request; deleted never. */
export function requestFilter(request: RecallRequest): MemoryFilter {
  const filter: MemoryFilter = { statuses: request.includeArchived ? ['active', 'archived'] : ['active'] };
  if (request.types?.length) filter.types = request.types;
  if (request.subtypes?.length) filter.subtypes = request.subtypes;
  if (request.tags?.length) filter.tags = request.tags;
  if (request.contextId !== undefined) filter.contextId = request.contextId;
  if (request.observerId !== undefined) filter.observerId = request.observerId;
  if (request.subjectId !== undefined) filter.subjectId = request.subjectId;
  if (request.userId !== undefined) filter.userId = request.userId;
  if (request.createdAfter !== undefined) filter.createdAfter = request.createdAfter;
  if (request.createdBefore !== undefined) filter.createdBefore = request.createdBefore;
  if (request.excludeIds?.length) filter.excludeIds = request.excludeIds;
  return filter;
}

/**
 * Intent effects (reference rules, one change): temporal and event queries raise recency to 0.5 unless the caller
 * set it, except when the query names its own time window ("in May 2023"): then "recent" is not what it wants.
 * Entity queries expand over associations unless the caller said no (our default expands anyway).
 */
export function resolveOptions(
  request: RecallRequest,
  intents: readonly Intent[],
  namesWindow: boolean,
): ResolvedOptions {
  const timeMinded = intents.includes('temporal') || intents.includes('event');
  return {
    limit: request.limit ?? RECALL_DEFAULTS.limit,
    threshold: relevanceThreshold(request.tolerance ?? RECALL_DEFAULTS.tolerance, request.minRelevance),
    recencyWeight:
      request.recencyWeight ??
      (timeMinded && !namesWindow ? RECALL_DEFAULTS.temporalRecencyWeight : RECALL_DEFAULTS.recencyWeight),
    includeAssociations:
      request.includeAssociations ?? (intents.includes('entity') || RECALL_DEFAULTS.includeAssociations),
    traverseDepth: request.traverseDepth ?? RECALL_DEFAULTS.traverseDepth,
    maxExpansion: request.maxExpansion ?? RECALL_DEFAULTS.maxExpansion,
    ragThreshold: request.ragThreshold ?? RECALL_DEFAULTS.ragThreshold,
    detailLevel: request.detailLevel ?? RECALL_DEFAULTS.detailLevel,
    filter: requestFilter(request),
    scopeContextId: request.contextId ?? request.scopeContextId,
    explain: request.explain ?? false,
  };
}
