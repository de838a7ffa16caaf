import { Type } from 'typebox';
import type { CoreServices } from '../../services.js';
import type { FastifyRequest } from 'fastify';
import { objectAccess, scopedAccess } from '../request-context.js';
import { commonErrors, WorkspaceQuery } from '../schemas/common.js';
import {
  CreateDataProviderBody,
  DataProvider,
  DataProviderEnvelope,
  DataProviderParams,
  DataProviderSyncResponse,
  ListDataProvidersQuery,
  UpdateDataProviderBody,
} from '../schemas/data-provider.js';
import type { App } from '../server.js';

const tags = ['data providers'];

/** Data-provider records of the resolved workspace. `encrypted_args` goes in, encrypted, and never comes out. */
export function dataProviderRoutes(app: App, services: CoreServices): void {
  const providers = services.dataProviders;
  const scopedWorkspace = async (request: FastifyRequest) => (await scopedAccess(services, request)).workspaceId;
  /** Routes under a provider id address the provider: the workspace is its. */
  const providerWorkspace = async (request: FastifyRequest, id: string) =>
    (await objectAccess(services, request, 'data_provider', id)).workspaceId;

  app.post(
    '/data-providers',
    {
      schema: {
        tags,
        summary: 'Register a data provider in the workspace',
        body: CreateDataProviderBody,
        response: { 201: DataProviderEnvelope, ...commonErrors },
      },
    },
    async (request, reply) => {
      const workspaceId = await scopedWorkspace(request);
      return reply
        .status(201)
        .send({ data_provider: providers.view(await providers.create(workspaceId, request.body)) });
    },
  );

  app.get(
    '/data-providers',
    {
      schema: {
        tags,
        summary: 'Data providers of the workspace, oldest first',
        querystring: ListDataProvidersQuery,
        response: {
          200: Type.Object({ data_providers: Type.Array(DataProvider), total_count: Type.Integer() }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const { workspace_id: _named, ...page } = request.query;
      const { providers: list, total } = await providers.list(await scopedWorkspace(request), page);
      return { data_providers: list.map((p) => providers.view(p)), total_count: total };
    },
  );

  app.get(
    '/data-providers/:provider_id',
    {
      schema: {
        tags,
        summary: 'A data provider (encrypted_args is never returned)',
        params: DataProviderParams,
        querystring: WorkspaceQuery,
        response: { 200: DataProviderEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const workspaceId = await providerWorkspace(request, request.params.provider_id);
      return { data_provider: providers.view(await providers.get(workspaceId, request.params.provider_id)) };
    },
  );

  app.put(
    '/data-providers/:provider_id',
    {
      schema: {
        tags,
        summary: 'Change a data provider; omitted fields stay',
        params: DataProviderParams,
        querystring: WorkspaceQuery,
        body: UpdateDataProviderBody,
        response: { 200: DataProviderEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const workspaceId = await providerWorkspace(request, request.params.provider_id);
      return {
        data_provider: providers.view(await providers.update(workspaceId, request.params.provider_id, request.body)),
      };
    },
  );

  app.delete(
    '/data-providers/:provider_id',
    {
      schema: {
        tags,
        summary: 'Delete a data provider (documents it ingested stay)',
        params: DataProviderParams,
        querystring: WorkspaceQuery,
        response: { 204: Type.Null(), ...commonErrors },
      },
    },
    async (request, reply) => {
      await providers.delete(await providerWorkspace(request, request.params.provider_id), request.params.provider_id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/data-providers/:provider_id/sync',
    {
      schema: {
        tags,
        summary: 'Run one sync of the provider now',
        description: 'The `local` provider of this edition fetches nothing yet and answers an empty `documents` list.',
        params: DataProviderParams,
        querystring: WorkspaceQuery,
        response: { 200: DataProviderSyncResponse, ...commonErrors },
      },
    },
    async (request) => {
      const workspaceId = await providerWorkspace(request, request.params.provider_id);
      const { provider, documents, synced_at } = await providers.sync(workspaceId, request.params.provider_id);
      return {
        provider_id: provider.id,
        workspace_id: provider.workspace_id,
        provider_type: provider.provider_type,
        documents,
        synced_at,
        data_provider: providers.view(provider),
      };
    },
  );
}
