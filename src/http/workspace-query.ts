import type { RouteOptions } from 'fastify';
import { Type, type TObject } from 'typebox';
import { WorkspaceIdField } from './schemas/common.js';

/** Routes that take no workspace from the query: the workspace is in the path, is the session's, or is not one at all. */
const TAKES_NO_WORKSPACE = /\/:workspace_id(\/|$)|^\/v1\/(context|api-keys|applications|workspaces)(\/|$)/;

/**
 * Every route that resolves a workspace reads `workspace_id` from the query too (after the body's, before the
 * headers), so this adds the field to the query schema of each such route: one resolution order for every route
 * and method, documented in the OpenAPI document where it applies.
 */
export function acceptWorkspaceQuery(route: RouteOptions): void {
  if (TAKES_NO_WORKSPACE.test(route.url)) return;
  route.schema ??= {};
  const schema = route.schema;
  const query = schema.querystring as TObject | undefined;
  if (!query) schema.querystring = Type.Object({ workspace_id: WorkspaceIdField }, { additionalProperties: false });
  else if (query.properties && !('workspace_id' in query.properties))
    schema.querystring = { ...query, properties: { ...query.properties, workspace_id: WorkspaceIdField } };
}
