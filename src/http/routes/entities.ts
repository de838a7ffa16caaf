import type { CoreServices } from '../../services.js';
import { commonErrors } from '../schemas/common.js';
import {
  CardQuery,
  CardResponse,
  DeriveBody,
  DeriveResponse,
  EntityParams,
  InsightsQuery,
  InsightsResponse,
} from '../schemas/entity.js';
import { scopedAccess } from '../request-context.js';
import type { App } from '../server.js';

const tags = ['entities'];

/** Entities: the subjects memories are about (`subject_id`), their derived insights and a cached card. */
export function entityRoutes(app: App, services: CoreServices): void {
  app.post(
    '/entities/:entity_id/derive',
    {
      schema: {
        tags,
        summary: 'Derive insights about an entity from the memories about it (stored as `inference` memories)',
        params: EntityParams,
        body: DeriveBody,
        response: { 200: DeriveResponse, ...commonErrors },
      },
    },
    async (request) => {
      const { observer_id, force } = request.body;
      const workspaceId = (await scopedAccess(services, request)).workspaceId;
      return services.entities.derive(workspaceId, request.params.entity_id, { observerId: observer_id, force });
    },
  );

  app.get(
    '/entities/:entity_id/card',
    {
      schema: {
        tags,
        summary: 'An entity’s card: reflection, insights and main memories (cached until they change)',
        params: EntityParams,
        querystring: CardQuery,
        response: { 200: CardResponse, ...commonErrors },
      },
    },
    async (request) => {
      const workspaceId = (await scopedAccess(services, request)).workspaceId;
      return services.entities.card(workspaceId, request.params.entity_id, {
        forceRefresh: request.query.force_refresh,
      });
    },
  );

  app.get(
    '/entities/:entity_id/insights',
    {
      schema: {
        tags,
        summary: 'Stored insights about an entity (no new derivation)',
        params: EntityParams,
        querystring: InsightsQuery,
        response: { 200: InsightsResponse, ...commonErrors },
      },
    },
    async (request) => {
      const q = request.query;
      const workspaceId = (await scopedAccess(services, request)).workspaceId;
      const { insights, total } = await services.entities.insights(workspaceId, request.params.entity_id, {
        observerId: q.observer_id,
        limit: q.limit,
      });
      return { entity_id: request.params.entity_id, workspace_id: workspaceId, insights, total_count: total };
    },
  );
}
