import { Type } from 'typebox';
import { requireAdmin } from '../../core/access/principal.js';
import type { CoreServices } from '../../services.js';
import { ApiKeyInfo, CreateApiKeyBody, IssuedApiKey } from '../schemas/api-key.js';
import { commonErrors, IdParams } from '../schemas/common.js';
import type { App } from '../server.js';

const tags = ['api-keys'];

/** Admin-only: issue keys limited to workspaces, list them (never the secret), revoke them. */
export function apiKeyRoutes(app: App, services: CoreServices): void {
  app.post(
    '/api-keys',
    {
      schema: {
        tags,
        summary: 'Issue an API key for some workspaces (the secret is shown once)',
        body: CreateApiKeyBody,
        response: { 201: Type.Object({ api_key: IssuedApiKey }), ...commonErrors },
      },
    },
    async (request, reply) => {
      requireAdmin(request.principal);
      return reply.status(201).send({ api_key: await services.apiKeys.issue(request.body) });
    },
  );

  app.get(
    '/api-keys',
    {
      schema: {
        tags,
        summary: 'List API keys',
        response: { 200: Type.Object({ api_keys: Type.Array(ApiKeyInfo) }), ...commonErrors },
      },
    },
    async (request) => {
      requireAdmin(request.principal);
      return { api_keys: await services.apiKeys.list() };
    },
  );

  app.delete(
    '/api-keys/:key_id',
    {
      schema: {
        tags,
        summary: 'Revoke an API key',
        params: IdParams('key_id', 'key id (key_…)'),
        response: { 204: Type.Null(), ...commonErrors },
      },
    },
    async (request, reply) => {
      requireAdmin(request.principal);
      await services.apiKeys.revoke(request.params.key_id);
      return reply.status(204).send(null);
    },
  );
}
