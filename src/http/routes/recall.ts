import type { CoreServices } from '../../services.js';
import { commonErrors, ErrorResponse } from '../schemas/common.js';
import { RecallBody, RecallResponse, ReflectBody, ReflectResponse } from '../schemas/recall.js';
import { scopedAccess } from '../request-context.js';
import type { App } from '../server.js';

const tags = ['memories'];

/** The memory filters recall and reflect share, from the body's names to the engine's. */
const filtersOf = (b: { types?: string[]; subtypes?: string[]; tags?: string[]; context_id?: string; observer_id?: string; subject_id?: string }) => ({
  types: b.types,
  subtypes: b.subtypes,
  tags: b.tags,
  contextId: b.context_id,
  observerId: b.observer_id,
  subjectId: b.subject_id,
});

export function recallRoutes(app: App, services: CoreServices): void {
  app.post(
    '/memories/recall',
    {
      schema: {
        tags,
        summary: 'Recall memories by meaning and words (hybrid retrieval, graph expansion, boosts)',
        body: RecallBody,
        response: { 200: RecallResponse, ...commonErrors },
      },
    },
    async (request) => {
      const b = request.body;
      return services.search.recall(await scopedAccess(services, request), {
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
    },
  );

  app.post(
    '/memories/reflect',
    {
      schema: {
        tags,
        summary: 'Answer a question from memories: recall, then synthesis by the language model (extractive without one)',
        body: ReflectBody,
        response: { 200: ReflectResponse, 502: ErrorResponse, ...commonErrors },
      },
    },
    async (request) => {
      const b = request.body;
      return services.search.reflect(await scopedAccess(services, request), {
        query: b.query,
        detailLevel: b.detail_level,
        includeSources: b.include_sources,
        depth: b.depth,
        ...filtersOf(b),
      });
    },
  );
}
