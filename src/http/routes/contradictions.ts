import { Type } from 'typebox';
import { authorizeWorkspace } from '../../core/access/principal.js';
import type { CoreServices } from '../../services.js';
import { commonErrors, ErrorResponse, IdParams } from '../schemas/common.js';
import {
  Contradiction,
  ListContradictionsQuery,
  ResolveBody,
  ResolveQuery,
  ScanBody,
  ScanResponse,
} from '../schemas/contradiction.js';
import { WorkspaceParams } from '../schemas/workspace.js';
import { objectAccess } from '../request-context.js';
import type { App } from '../server.js';

const tags = ['contradictions'];

export function contradictionRoutes(app: App, services: CoreServices): void {
  app.get(
    '/workspaces/:workspace_id/contradictions',
    {
      schema: {
        tags,
        summary: 'Unresolved contradictions, newest first',
        params: WorkspaceParams,
        querystring: ListContradictionsQuery,
        response: {
          200: Type.Object({ contradictions: Type.Array(Contradiction), count: Type.Integer() }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      authorizeWorkspace(request.principal, request.params.workspace_id);
      const contradictions = await services.contradictions.listUnresolved(
        request.params.workspace_id,
        request.query.limit,
      );
      return { contradictions, count: contradictions.length };
    },
  );

  app.post(
    '/workspaces/:workspace_id/contradictions/scan',
    {
      schema: {
        tags,
        summary: 'Check the most recent memories for contradictions',
        params: WorkspaceParams,
        body: Type.Optional(ScanBody),
        response: { 200: ScanResponse, ...commonErrors },
      },
    },
    async (request) => {
      const workspaceId = request.params.workspace_id;
      authorizeWorkspace(request.principal, workspaceId);
      const found = await services.contradictions.scan(workspaceId, request.body?.batch_size);
      return { workspace_id: workspaceId, contradictions_found: found.length, contradictions: found };
    },
  );

  app.post(
    '/contradictions/:contradiction_id/resolve',
    {
      schema: {
        tags,
        summary: 'Resolve a contradiction: keep_a, keep_b, keep_both, or merge (with merged_content)',
        params: IdParams('contradiction_id', 'contradiction id (ctr_…)'),
        querystring: ResolveQuery,
        body: ResolveBody,
        response: { 200: Contradiction, 409: ErrorResponse, ...commonErrors },
      },
    },
    async (request) => {
      const { workspaceId } = await objectAccess(services, request, 'contradiction', request.params.contradiction_id);
      const { resolution, merged_content } = request.body;
      return services.contradictions.resolve(workspaceId, request.params.contradiction_id, resolution, merged_content);
    },
  );
}
