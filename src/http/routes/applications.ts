import { Type } from 'typebox';
import { authorizeWorkspace, requireAdmin, visibleWorkspaces } from '../../core/access/principal.js';
import type { WorkspaceApplication as InWorkspace } from '../../core/applications/service.js';
import type { CoreServices } from '../../services.js';
import {
  Application,
  ApplicationAssociation,
  ApplicationParams,
  ApplicationWorkspaceParams,
  CreateApplicationBody,
  LinkApplicationBody,
  ListApplicationsQuery,
  UpdateApplicationBody,
  WorkspaceApplication,
} from '../schemas/application.js';
import { commonErrors } from '../schemas/common.js';
import { WorkspaceParams } from '../schemas/workspace.js';
import type { App } from '../server.js';

const tags = ['applications'];

const inWorkspaceView = ({ application, link, effective_config, effective_enabled }: InWorkspace) => ({
  ...application,
  association: link,
  effective_config,
  effective_enabled,
});

/**
 * Applications are tenant-level: creating, changing, deleting them and linking them to workspaces needs the admin
 * key. Workspace keys read the applications linked to their workspaces.
 */
export function applicationRoutes(app: App, services: CoreServices): void {
  app.post(
    '/applications',
    {
      schema: {
        tags,
        summary: 'Register an application (admin)',
        body: CreateApplicationBody,
        response: { 201: Application, ...commonErrors },
      },
    },
    async (request, reply) => {
      requireAdmin(request.principal);
      return reply.status(201).send(await services.applications.create(request.body));
    },
  );

  app.get(
    '/applications',
    {
      schema: {
        tags,
        summary: 'List applications, oldest first (a workspace key sees those linked to its workspaces)',
        querystring: ListApplicationsQuery,
        response: {
          200: Type.Object({ applications: Type.Array(Application), total_count: Type.Integer() }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const { applications, total } = await services.applications.list(
        request.query,
        visibleWorkspaces(request.principal),
      );
      return { applications, total_count: total };
    },
  );

  app.get(
    '/applications/:app_id',
    {
      schema: {
        tags,
        summary: 'Get an application',
        params: ApplicationParams,
        response: { 200: Application, ...commonErrors },
      },
    },
    async (request) => services.applications.get(request.params.app_id, visibleWorkspaces(request.principal)),
  );

  app.put(
    '/applications/:app_id',
    {
      schema: {
        tags,
        summary: 'Change an application; omitted fields stay (admin)',
        params: ApplicationParams,
        body: UpdateApplicationBody,
        response: { 200: Application, ...commonErrors },
      },
    },
    async (request) => {
      requireAdmin(request.principal);
      return services.applications.update(request.params.app_id, request.body);
    },
  );

  app.delete(
    '/applications/:app_id',
    {
      schema: {
        tags,
        summary: 'Delete an application and its workspace links (admin)',
        params: ApplicationParams,
        response: { 204: Type.Null(), ...commonErrors },
      },
    },
    async (request, reply) => {
      requireAdmin(request.principal);
      await services.applications.delete(request.params.app_id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/applications/:app_id/workspaces/:workspace_id',
    {
      schema: {
        tags,
        summary:
          'Link an application to a workspace, or change the link: enabled and config_overrides (admin; 201 when created)',
        params: ApplicationWorkspaceParams,
        body: LinkApplicationBody,
        response: { 200: ApplicationAssociation, 201: ApplicationAssociation, ...commonErrors },
      },
    },
    async (request, reply) => {
      requireAdmin(request.principal);
      const { link, created } = await services.applications.link(
        request.params.app_id,
        request.params.workspace_id,
        request.body,
      );
      return reply.status(created ? 201 : 200).send(link);
    },
  );

  app.delete(
    '/applications/:app_id/workspaces/:workspace_id',
    {
      schema: {
        tags,
        summary: 'Remove an application from a workspace (admin)',
        params: ApplicationWorkspaceParams,
        response: { 204: Type.Null(), ...commonErrors },
      },
    },
    async (request, reply) => {
      requireAdmin(request.principal);
      await services.applications.unlink(request.params.app_id, request.params.workspace_id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/workspaces/:workspace_id/applications',
    {
      schema: {
        tags,
        summary: 'Applications linked to a workspace, each with its effective config there',
        params: WorkspaceParams,
        response: {
          200: Type.Object({
            workspace_id: Type.String(),
            applications: Type.Array(WorkspaceApplication),
            total_count: Type.Integer(),
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const workspaceId = request.params.workspace_id;
      authorizeWorkspace(request.principal, workspaceId);
      const applications = (await services.applications.inWorkspace(workspaceId)).map(inWorkspaceView);
      return { workspace_id: workspaceId, applications, total_count: applications.length };
    },
  );
}
