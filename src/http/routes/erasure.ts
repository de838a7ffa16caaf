import { Type } from 'typebox';
import { requireAdmin } from '../../core/access/principal.js';
import type { ErasureScope, PersonSelector } from '../../core/erasure/service.js';
import { invalid } from '../../errors.js';
import type { CoreServices } from '../../services.js';
import { existingAccess } from '../request-context.js';
import { commonErrors } from '../schemas/common.js';
import { ErasureAuditQuery, ErasureAuditSchema, ErasureBody, ErasureResult } from '../schemas/erasure.js';
import type { App } from '../server.js';

const tags = ['erasure'];

function selectorOf(body: { user_id?: string | undefined; subject_id?: string | undefined }): PersonSelector {
  if ((body.user_id === undefined) === (body.subject_id === undefined))
    throw invalid('/user_id', 'give exactly one of user_id or subject_id');
  return body.user_id !== undefined
    ? { kind: 'user_id', id: body.user_id }
    : { kind: 'subject_id', id: body.subject_id! };
}

/** Erasure of a user or a subject (NOTES.md, "Erasure"), and its audit trail. */
export function erasureRoutes(app: App, services: CoreServices): void {
  app.post(
    '/erasures',
    {
      schema: {
        tags,
        summary:
          'Remove for good everything of a user_id or a subject_id, in one workspace or in all the caller may use; answers what went',
        body: ErasureBody,
        response: { 200: ErasureResult, ...commonErrors },
      },
    },
    async (request) => {
      const body = request.body;
      const selector = selectorOf(body);
      if (body.all_workspaces && body.workspace_id !== undefined)
        throw invalid('/workspace_id', 'leave it out with all_workspaces');
      const scope: ErasureScope = body.all_workspaces
        ? { allWorkspaces: true }
        : { workspaceId: (await existingAccess(services, request, body.workspace_id)).workspaceId };
      return services.erasure.erase({ selector, scope, principal: request.principal });
    },
  );

  app.get(
    '/erasures',
    {
      schema: {
        tags,
        summary: 'The audit trail of erasures, newest first (admin only); it keeps no content and no raw id',
        querystring: ErasureAuditQuery,
        response: { 200: Type.Object({ erasures: Type.Array(ErasureAuditSchema) }), ...commonErrors },
      },
    },
    async (request) => {
      requireAdmin(request.principal);
      return { erasures: await services.erasure.audits(request.query.limit ?? 100) };
    },
  );
}
