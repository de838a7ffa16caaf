import type { CoreServices } from '../../services.js';
import { commonErrors, ErrorResponse } from '../schemas/common.js';
import {
  RecallBody,
  RecallResponse,
  ReflectBody,
  ReflectResponse,
  toRecallRequest,
  toReflectRequest,
} from '../schemas/recall.js';
import { scopedAccess } from '../request-context.js';
import type { App } from '../server.js';

const tags = ['memories'];

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
    async (request) => services.search.recall(await scopedAccess(services, request), toRecallRequest(request.body)),
  );

  app.post(
    '/memories/reflect',
    {
      schema: {
        tags,
        summary:
          'Answer a question from memories: recall, then synthesis by the language model (extractive without one)',
        body: ReflectBody,
        response: { 200: ReflectResponse, 502: ErrorResponse, ...commonErrors },
      },
    },
    async (request) => services.search.reflect(await scopedAccess(services, request), toReflectRequest(request.body)),
  );
}
