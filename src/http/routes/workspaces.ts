import { Type } from 'typebox';
import { authorizeWorkspace } from '../../core/access/principal.js';
import type { CoreServices } from '../../services.js';
import { commonErrors, ErrorResponse } from '../schemas/common.js';
import {
  Context,
  CreateContextBody,
  CreateWorkspaceBody,
  SchemaResponse,
  UpdateWorkspaceBody,
  WorkspaceEnvelope,
  WorkspaceParams,
} from '../schemas/workspace.js';
import type { App } from '../server.js';

const tags = ['workspaces'];

/** Workspaces (tenants) and their contexts. A path workspace is authorized like any other resolved one. */
export function workspaceRoutes(app: App, services: CoreServices): void {
  app.post(
    '/workspaces',
    {
      schema: {
        tags,
        summary: 'Create a workspace',
        body: CreateWorkspaceBody,
        response: { 201: WorkspaceEnvelope, 409: ErrorResponse, ...commonErrors },
      },
    },
    async (request, reply) => {
      return reply.status(201).send({ workspace: await services.workspaces.create(request.principal, request.body) });
    },
  );

  app.get(
    '/workspaces',
    {
      schema: {
        tags,
        summary: 'List the workspaces the caller may use',
        response: {
          200: Type.Object({ workspaces: Type.Array(WorkspaceEnvelope.properties.workspace) }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      return { workspaces: await services.workspaces.list(request.principal) };
    },
  );

  app.get(
    '/workspaces/:workspace_id',
    {
      schema: {
        tags,
        summary: 'Get a workspace (404 when absent)',
        params: WorkspaceParams,
        response: { 200: WorkspaceEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      authorizeWorkspace(request.principal, request.params.workspace_id);
      return { workspace: await services.workspaces.get(request.params.workspace_id) };
    },
  );

  app.put(
    '/workspaces/:workspace_id',
    {
      schema: {
        tags,
        summary: 'Rename a workspace or replace its settings',
        params: WorkspaceParams,
        body: UpdateWorkspaceBody,
        response: { 200: WorkspaceEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      authorizeWorkspace(request.principal, request.params.workspace_id);
      return { workspace: await services.workspaces.update(request.params.workspace_id, request.body) };
    },
  );

  app.delete(
    '/workspaces/:workspace_id',
    {
      schema: {
        tags,
        summary: 'Delete a workspace and everything in it (`_default` cannot be deleted)',
        params: WorkspaceParams,
        response: { 204: Type.Null(), ...commonErrors },
      },
    },
    async (request, reply) => {
      authorizeWorkspace(request.principal, request.params.workspace_id);
      await services.workspaces.delete(request.params.workspace_id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/workspaces/:workspace_id/schema',
    {
      schema: {
        tags,
        summary: 'Relationship types and memory subtypes available in the workspace',
        params: WorkspaceParams,
        response: { 200: SchemaResponse, ...commonErrors },
      },
    },
    async (request) => {
      authorizeWorkspace(request.principal, request.params.workspace_id);
      return services.workspaces.schema(request.params.workspace_id);
    },
  );

  app.post(
    '/workspaces/:workspace_id/contexts',
    {
      schema: {
        tags: ['contexts'],
        summary: 'Create a context in a workspace',
        params: WorkspaceParams,
        body: CreateContextBody,
        response: { 201: Type.Object({ context: Context }), 409: ErrorResponse, ...commonErrors },
      },
    },
    async (request, reply) => {
      authorizeWorkspace(request.principal, request.params.workspace_id);
      return reply
        .status(201)
        .send({ context: await services.workspaces.createContext(request.params.workspace_id, request.body) });
    },
  );

  app.get(
    '/workspaces/:workspace_id/contexts',
    {
      schema: {
        tags: ['contexts'],
        summary: 'List the contexts of a workspace',
        params: WorkspaceParams,
        response: { 200: Type.Object({ contexts: Type.Array(Context) }), ...commonErrors },
      },
    },
    async (request) => {
      authorizeWorkspace(request.principal, request.params.workspace_id);
      return { contexts: await services.workspaces.listContexts(request.params.workspace_id) };
    },
  );
}
