import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { isIdentifier } from '../core/identifiers.js';
import { invalid } from '../errors.js';
import type { CoreServices } from '../services.js';
import { toolContext, type McpCaller, type ToolContext } from './caller.js';
import { protocolError } from './errors.js';

/** How many memories the recent-memories resource shows: a glance, not a listing (recall and export go further). */
const RECENT_MEMORIES = 20;

const json = (uri: URL, value: unknown): ReadResourceResult => ({
  contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value) }],
});

const variable = (value: string | string[] | undefined): string =>
  Array.isArray(value) ? (value[0] ?? '') : (value ?? '');

/** The workspace a resource URI names, as written there (percent-encoded); a malformed escape is the caller's error. */
function workspaceOf(variables: Record<string, string | string[]>): string {
  try {
    return decodeURIComponent(variable(variables.workspace_id));
  } catch {
    throw invalid('workspace_id', 'is not valid percent-encoding');
  }
}

/** Resources of every workspace the caller may use: its newest memories, and its schema (the vocabulary of memory types and links). */
export function registerResources(server: McpServer, services: CoreServices, caller: McpCaller): void {
  const listed = (suffix: string, label: string) => async () => ({
    // A workspace named before ids were checked everywhere cannot be read through a URI: not listed.
    resources: (await services.workspaces.list(caller.principal))
      .filter((workspace) => isIdentifier(workspace.id))
      .map((workspace) => ({
        uri: `memd://workspaces/${workspace.id}/${suffix}`,
        name: `${workspace.id}: ${label}`,
        mimeType: 'application/json',
      })),
  });
  const reading =
    (read: (workspaceId: string, context: ToolContext) => Promise<unknown>) =>
    async (uri: URL, variables: Record<string, string | string[]>): Promise<ReadResourceResult> => {
      const context = toolContext(services, caller);
      try {
        return json(uri, await read(workspaceOf(variables), context));
      } catch (error) {
        await context.abandon();
        throw protocolError(error);
      }
    };

  server.registerResource(
    'recent-memories',
    new ResourceTemplate('memd://workspaces/{workspace_id}/memories/recent', {
      list: listed('memories/recent', 'recent memories'),
    }),
    {
      title: 'Recent memories',
      description: `The ${RECENT_MEMORIES} newest active memories of a workspace, and how many it has`,
      mimeType: 'application/json',
    },
    reading(async (workspaceId, context) => {
      // As GET /v1/memories?workspace_id=…: the workspace the caller names, resolved and authorized alike.
      const access = await context.scope(workspaceId);
      const listing = await services.memories.list(access.workspaceId, 'active', {}, { limit: RECENT_MEMORIES });
      return { workspace_id: access.workspaceId, memories: listing.memories, total_count: listing.total };
    }),
  );

  server.registerResource(
    'workspace-schema',
    new ResourceTemplate('memd://workspaces/{workspace_id}/schema', { list: listed('schema', 'schema') }),
    {
      title: 'Workspace schema',
      description:
        'Memory types and subtypes, and the relationship types (by category) that associate and traverse take',
      mimeType: 'application/json',
    },
    reading(async (workspaceId, context) => {
      // As GET /v1/workspaces/{id}/schema: read, never created.
      const access = await context.existing(workspaceId);
      return services.workspaces.schema(access.workspaceId);
    }),
  );
}
